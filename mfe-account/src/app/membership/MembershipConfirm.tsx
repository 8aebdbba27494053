/**
 * The membership confirmation (/tiffin-one/confirm?order_id=…): what was bought, when it starts and
 * ends, what it gives (the plan's benefits), all from the membership service's record (GET
 * profile/super), never from what checkout remembered.
 *
 * The membership starts when the payment's confirmation reaches the membership service, which may
 * be a moment after checkout saw it: until the plan bought with this order shows up, the page asks
 * again every second for a while. Once it has, the customer record is read again, so the header
 * (and every app) knows the customer is a member now.
 */
import { customerMessage, edge } from '@tiffin/api-client';
import { setCurrentUser, type SuperPlan, type SuperStatus, type SuperSubscription } from '@tiffin/contract';
import { ErrorState, formatDate, formatPrice, Link, Skeleton } from '@tiffin/design-system';
import { useEffect, useState } from 'react';

/** How often, and how many times, to ask before saying the membership is still on its way. */
export const CONFIRM_POLL_MS = 1000;
export const CONFIRM_POLL_TRIES = 15;

type View =
  | { kind: 'loading' }
  | { kind: 'ready'; status: SuperStatus; bought: SuperSubscription; plan: SuperPlan | null }
  | { kind: 'waiting' }
  | { kind: 'failed'; message: string };

/** The plan bought with `orderId`; without one, the newest plan bought (the one that ends last). */
export function boughtWith(status: SuperStatus, orderId: string | null): SuperSubscription | null {
  const all = [...(status.current ? [status.current] : []), ...status.upcoming];
  if (orderId) return all.find((s) => s.orderId === orderId) ?? null;
  return all.reduce<SuperSubscription | null>((newest, s) => (!newest || s.endsAt > newest.endsAt ? s : newest), null);
}

function orderIdOfPage(): string | null {
  if (typeof window === 'undefined') return null;
  return new URLSearchParams(window.location.search).get('order_id');
}

export function MembershipConfirm() {
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [round, setRound] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    const orderId = orderIdOfPage();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const look = async (tries: number) => {
      try {
        const status = await edge.superStatus({ signal: controller.signal });
        const bought = status.status === 'SUPER' ? boughtWith(status, orderId) : null;
        if (controller.signal.aborted) return;
        if (!bought) {
          if (tries + 1 >= CONFIRM_POLL_TRIES) return setView({ kind: 'waiting' });
          timer = setTimeout(() => void look(tries + 1), CONFIRM_POLL_MS);
          return;
        }
        const plans = await edge.superPlans({ signal: controller.signal }).then((r) => r.plans, () => [] as SuperPlan[]);
        if (controller.signal.aborted) return;
        setView({ kind: 'ready', status, bought, plan: plans.find((p) => p.planId === bought.planId) ?? null });
        // The customer record now says SUPER: the header's membership entry follows it.
        edge.profile().then(setCurrentUser, () => {});
      } catch (failure) {
        if (!controller.signal.aborted) setView({ kind: 'failed', message: customerMessage(failure) });
      }
    };
    setView({ kind: 'loading' });
    void look(0);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [round]);

  switch (view.kind) {
    case 'loading':
      return (
        <section className="acct-membership" aria-label="Tiffin One" aria-busy="true">
          <p role="status">Activating your Tiffin One membership…</p>
          <Skeleton height={200} />
        </section>
      );
    case 'waiting':
      return (
        <ErrorState
          role="region"
          title="Your membership is on its way"
          message="We have your payment, and your membership will start in a moment. Please check again shortly."
          actionLabel="Check again"
          onAction={() => setRound((n) => n + 1)}
        />
      );
    case 'failed':
      return <ErrorState title="We could not load your membership" message={view.message} actionLabel="Retry" onAction={() => setRound((n) => n + 1)} />;
    case 'ready':
      return <Confirmed status={view.status} bought={view.bought} plan={view.plan} />;
  }
}

function Confirmed({ status, bought, plan }: { status: SuperStatus; bought: SuperSubscription; plan: SuperPlan | null }) {
  return (
    <section className="acct-membership acct-membership--confirmed" aria-label="Welcome to Tiffin One">
      <h1 className="acct-membership__title">Welcome to Tiffin One</h1>
      <div className="acct-card acct-one" data-testid="membership-bought">
        <h2 className="acct-one__plan">{`${bought.planName} · ${bought.title}`}</h2>
        <dl className="acct-one__facts">
          <div>
            <dt>Starts</dt>
            <dd>{formatDate(bought.startsAt)}</dd>
          </div>
          <div>
            <dt>Ends</dt>
            <dd>{formatDate(bought.endsAt)}</dd>
          </div>
          <div>
            <dt>Paid</dt>
            <dd>{formatPrice(bought.pricePaid)}</dd>
          </div>
        </dl>
        {status.memberUntil > bought.endsAt ? <p>{`Your membership now lasts until ${formatDate(status.memberUntil)}.`}</p> : null}
        {plan ? (
          <>
            <h3>What you save with it</h3>
            <ul className="acct-plan__benefits" aria-label="Your benefits">
              {plan.planElement.map((benefit) => (
                <li key={benefit}>{benefit}</li>
              ))}
            </ul>
          </>
        ) : null}
      </div>
      <div className="acct-membership__actions">
        <Link href="/restaurants" className="acct-button-link">
          ORDER FOOD NOW
        </Link>
        <Link href="/my-account/super">See your membership</Link>
      </div>
    </section>
  );
}
