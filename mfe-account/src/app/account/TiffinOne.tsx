/**
 * The account's Tiffin One tab (/my-account/super), from GET profile/super (loading, then loaded or
 * failed with a retry):
 * - a member: the status, the plan, its start and end, the savings so far and the plans queued
 *   after it; renew (the same plan again, through /checkout/super) and cancel (renewal stops, the
 *   benefits last to the end date, the fee is not refunded, and the page says so before it asks);
 * - a past member: when it ended, and rejoining;
 * - never a member: the plans in short, leading to /tiffin-one.
 * The customer's "notify me" requests are listed under it whatever the status.
 */
import { customerMessage, edge } from '@tiffin/api-client';
import type { SuperNotification, SuperStatus } from '@tiffin/contract';
import { AsyncContent, Button, formatDate, formatPrice, Link, useAsync } from '@tiffin/design-system';
import { useState } from 'react';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { useBuyPlan } from '../membership/useBuyPlan';

/** What cancelling means, said before the customer confirms it. */
export function cancelMessage(status: SuperStatus): string {
  return `Cancel Tiffin One? It will not renew, and your benefits stay until ${formatDate(status.memberUntil)}. Membership fees are non-refundable.`;
}

const STATUS_WORDS: Record<SuperStatus['status'], string> = { SUPER: 'Active', WAS_SUPER: 'Ended', NOT_SUPER: 'Not a member' };

function Member({ status, onChanged }: { status: SuperStatus; onChanged: (status: SuperStatus) => void }) {
  const { state: buying, buy } = useBuyPlan();
  const [asking, setAsking] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const current = status.current;

  const cancel = async () => {
    setCancelling(true);
    setError(null);
    try {
      onChanged(await edge.cancelSuper());
      setAsking(false);
    } catch (failure) {
      setError(customerMessage(failure));
    } finally {
      setCancelling(false);
    }
  };

  const renewMessage =
    buying.kind === 'refused' ? buying.availability.message : buying.kind === 'failed' ? buying.message : null;

  return (
    <div className="acct-card acct-one acct-one--member">
      <p className="acct-one__status" data-testid="membership-status" data-status={status.status}>
        {`Status: ${STATUS_WORDS[status.status]} (${status.status})`}
      </p>
      {current ? <h3 className="acct-one__plan">{`${current.planName} · ${current.title}`}</h3> : null}
      <dl className="acct-one__facts">
        {current ? (
          <div>
            <dt>Started</dt>
            <dd>{formatDate(current.startsAt)}</dd>
          </div>
        ) : null}
        <div>
          <dt>{status.renews ? 'Renews on' : 'Ends on'}</dt>
          <dd>{formatDate(status.memberUntil)}</dd>
        </div>
        <div>
          <dt>Saved so far</dt>
          <dd>{formatPrice(status.savings)}</dd>
        </div>
      </dl>
      {status.upcoming.length > 0 ? (
        <div>
          <h4>Coming up</h4>
          <ul className="acct-one__upcoming" aria-label="Plans after this one">
            {status.upcoming.map((s) => (
              <li key={s.subscriptionId}>{`${s.title}: ${formatDate(s.startsAt)} to ${formatDate(s.endsAt)}`}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {status.renews ? null : <p className="acct-one__note">{`Cancelled: it will not renew. Your benefits stay until ${formatDate(status.memberUntil)}.`}</p>}
      <div className="acct-one__actions">
        {current ? (
          <Button disabled={buying.kind === 'busy'} onClick={() => buy(current.planId)}>
            RENEW
          </Button>
        ) : null}
        <Link href="/tiffin-one" className="acct-button-link">
          SEE ALL PLANS
        </Link>
        {status.renews ? (
          <Button variant="secondary" onClick={() => setAsking(true)}>
            CANCEL MEMBERSHIP
          </Button>
        ) : null}
      </div>
      {renewMessage ? (
        <p className="acct-error" role="alert">
          {renewMessage}
        </p>
      ) : null}
      <p className="acct-one__policy">Membership fees are non-refundable. Cancelling stops renewal; your benefits last until the end date.</p>
      {asking ? <ConfirmDialog message={cancelMessage(status)} confirmLabel="YES, CANCEL" busy={cancelling} onConfirm={() => void cancel()} onCancel={() => setAsking(false)} /> : null}
      {error ? (
        <p className="acct-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function PastMember({ status }: { status: SuperStatus }) {
  return (
    <div className="acct-card acct-one">
      <p className="acct-one__status" data-testid="membership-status" data-status={status.status}>
        {`Status: ${STATUS_WORDS[status.status]} (${status.status})`}
      </p>
      <p>{`Your Tiffin One membership ended on ${formatDate(status.memberUntil)}.`}</p>
      {status.savings > 0 ? <p>{`It saved you ${formatPrice(status.savings)}.`}</p> : null}
      <Link href="/tiffin-one" className="acct-button-link">
        REJOIN TIFFIN ONE
      </Link>
    </div>
  );
}

function NotMember() {
  const plans = useAsync((signal) => edge.superPlans({ signal }), []);
  return (
    <div className="acct-card acct-one">
      <h3>Tiffin One</h3>
      <p data-testid="membership-status" data-status="NOT_SUPER">
        Free deliveries and extra discounts on every order.
      </p>
      <AsyncContent state={plans}>
        {({ plans: list }) => {
          const cheapest = list.reduce<number | null>((min, p) => (min === null || p.finalPrice < min ? p.finalPrice : min), null);
          return (
            <>
              {cheapest !== null ? <p className="acct-one__price">Plans from {formatPrice(cheapest)}</p> : null}
              <ul className="acct-one__plans">
                {list.map((plan) => (
                  <li key={plan.planId}>
                    {plan.title || plan.planName}: <strong>{formatPrice(plan.finalPrice)}</strong>
                  </li>
                ))}
              </ul>
            </>
          );
        }}
      </AsyncContent>
      <Link href="/tiffin-one" className="acct-button-link">
        EXPLORE TIFFIN ONE
      </Link>
    </div>
  );
}

function NotifyRequests({ notifications }: { notifications: SuperNotification[] }) {
  if (notifications.length === 0) return null;
  return (
    <section className="acct-card acct-one__requests" aria-label="Notify me requests">
      <h3>You asked us to tell you</h3>
      <ul>
        {notifications.map((n) => (
          <li key={`${n.planId}-${n.city}`}>{`${n.planTitle} in ${n.cityName || n.city}, asked on ${formatDate(n.requestedAt)}`}</li>
        ))}
      </ul>
    </section>
  );
}

export function TiffinOne() {
  const membership = useAsync((signal) => edge.superStatus({ signal }), []);
  // A failed read of the requests only hides them: the membership is what this tab is for.
  const requests = useAsync((signal) => edge.superNotifications({ signal }).then((r) => r.notifications, () => [] as SuperNotification[]), []);
  /** The membership as cancelling left it, over what was read. */
  const [changed, setChanged] = useState<SuperStatus | null>(null);
  return (
    <>
      <AsyncContent state={membership}>
        {(read) => {
          const status = changed ?? read;
          if (status.status === 'SUPER') return <Member status={status} onChanged={setChanged} />;
          if (status.status === 'WAS_SUPER') return <PastMember status={status} />;
          return <NotMember />;
        }}
      </AsyncContent>
      {requests.status === 'success' ? <NotifyRequests notifications={requests.data} /> : null}
    </>
  );
}
