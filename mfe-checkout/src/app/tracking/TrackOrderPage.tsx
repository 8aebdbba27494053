/**
 * Live order tracking (/track-order/{orderId} and /order-track/{orderId}), for signed-in customers
 * only: a visitor is sent home. The status and its line, the ETA, the map, the status history, the
 * restaurant's phone, and the ways on to the order's details and to help. What is shown is always
 * the latest snapshot (`useTracking`).
 */
import { getCurrentUser, navigate, orderDetailsHref, orderHelpHref, orderStatusWords, subscribeCurrentUser, type Tracking } from '@tiffin/contract';
import { Button, formatTime, Link, Skeleton, Timeline } from '@tiffin/design-system';
import { LazyTrackingMap, TRACKING_MAP_HEIGHT } from '@tiffin/map';
import { useEffect, useSyncExternalStore } from 'react';
import { isCancelled, restaurantPhone, statusLine, trackingMap } from './tracking-rules';
import { useTracking } from './useTracking';

const HELP_LINE = 'For help and queries, please contact the restaurant';

export function TrackOrderPage({ orderId }: { orderId: string }) {
  const user = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, () => null);
  useEffect(() => {
    if (!user) navigate('/', { replace: true });
  }, [user]);
  if (!user) return null;
  return <Tracker orderId={orderId} />;
}

function Tracker({ orderId }: { orderId: string }) {
  const state = useTracking(orderId);
  return (
    <section className="chk-track" aria-label="Order tracking">
      <h1 className="chk-track__title">Order #{orderId}</h1>
      {state.status === 'loading' ? <TrackingSkeleton /> : null}
      {state.status === 'failed' ? (
        <div className="chk-track__failed" role="alert">
          <h2 className="chk-track__status">Something went wrong!!!</h2>
          <Button variant="secondary" onClick={state.retry}>
            Retry
          </Button>
        </div>
      ) : null}
      {state.status === 'ready' ? <Snapshot tracking={state.tracking} /> : null}
      <Contact phone={state.status === 'ready' ? restaurantPhone(state.tracking) : null} />
      <nav className="chk-track__links" aria-label="This order">
        <Link href={orderDetailsHref(orderId)}>Order details</Link>
        <Link href={orderHelpHref(orderId)}>Help</Link>
      </nav>
    </section>
  );
}

function Snapshot({ tracking }: { tracking: Tracking }) {
  const details = tracking.order_status_details;
  const cancelled = isCancelled(tracking);
  const line = statusLine(tracking);
  const map = trackingMap(tracking);
  return (
    <>
      <p className="chk-track__restaurant">{tracking.restaurant_name}</p>
      <div className={cancelled ? 'chk-track__head chk-track__head--cancelled' : 'chk-track__head'} aria-live="polite">
        {cancelled ? <CancelledIcon /> : null}
        <h2 className="chk-track__status">{cancelled ? 'Order Cancelled' : details.status_tag_text}</h2>
        {line ? <p className="chk-track__line">{line}</p> : null}
      </div>
      {details.eta_text && !tracking.terminal ? (
        <p className="chk-track__eta">
          <span className="chk-track__eta-label">Arriving in</span> <strong className="chk-track__eta-time">{details.eta_text}</strong>
          {details.eta_subtext ? <span className="chk-track__eta-subtext">{details.eta_subtext}</span> : null}
        </p>
      ) : null}
      {map ? <LazyTrackingMap {...map} /> : null}
      {tracking.status_history.length > 0 ? (
        <Timeline label="Order status" steps={tracking.status_history.map((change) => ({ label: orderStatusWords(change.order_status), detail: formatTime(change.changed_at) }))} />
      ) : null}
    </>
  );
}

function Contact({ phone }: { phone: string | null }) {
  return (
    <div className="chk-track__contact">
      <p className="chk-page__note">{HELP_LINE}</p>
      {phone ? (
        <a className="chk-track__call" href={`tel:${phone}`}>
          Call {phone}
        </a>
      ) : null}
    </div>
  );
}

/** Holds the snapshot's place while it loads: the status lines and the map's own height. */
function TrackingSkeleton() {
  return (
    <div className="chk-track__skeleton">
      <Skeleton height={28} width="60%" />
      <Skeleton height={18} width="80%" />
      <Skeleton height={TRACKING_MAP_HEIGHT} />
    </div>
  );
}

function CancelledIcon() {
  return (
    <svg className="chk-track__cancelled-icon" viewBox="0 0 24 24" width="40" height="40" role="img" aria-label="Cancelled">
      <circle cx="12" cy="12" r="11" fill="currentColor" />
      <path d="M8 8l8 8M16 8l-8 8" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" />
    </svg>
  );
}
