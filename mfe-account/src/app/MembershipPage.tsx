/**
 * The membership page (/tiffin-one): the plans (the `plan-listing` widget of GET super/plans), each
 * bought from here (`useBuyPlan`: availability where the customer is, the plan into the cart, then
 * /checkout/super). A member sees their plan and when it ends instead of the pitch, and can extend
 * it with the same plans.
 */
import { edge } from '@tiffin/api-client';
import { isSuperMember, type SuperPlan, type SuperStatus } from '@tiffin/contract';
import { AsyncContent, Button, formatDate, formatPrice, Link, useAsync } from '@tiffin/design-system';
import { useState } from 'react';
import { useCurrentUser } from './common/user';
import { PlanCard } from './membership/PlanCard';
import { useBuyPlan } from './membership/useBuyPlan';

function PlanList({ plans, extending }: { plans: SuperPlan[]; extending: boolean }) {
  const { state, buy, notify } = useBuyPlan();
  return (
    <ul className="acct-plans" aria-label={extending ? 'Plans to extend with' : 'Tiffin One plans'}>
      {plans.map((plan) => (
        <PlanCard
          key={plan.planId}
          plan={plan}
          state={state}
          onBuy={() => buy(plan.planId)}
          onNotify={() => notify(plan.planId)}
          actionLabel={extending ? `EXTEND BY ${(plan.title || plan.planName).toUpperCase()}` : undefined}
        />
      ))}
    </ul>
  );
}

/** A member's plan: what runs now, until when, what it saved, and what is queued after it. */
function MemberSummary({ status }: { status: SuperStatus }) {
  const current = status.current;
  return (
    <div className="acct-card acct-one acct-one--member" data-testid="membership-summary">
      <p className="acct-one__status">You are a Tiffin One member</p>
      {current ? <h2 className="acct-one__plan">{`${current.planName} · ${current.title}`}</h2> : null}
      <p>
        Member until <strong>{formatDate(status.memberUntil)}</strong>
        {status.renews ? '' : ' (will not renew)'}
      </p>
      {status.savings > 0 ? <p>{`You have saved ${formatPrice(status.savings)} with Tiffin One.`}</p> : null}
      {status.upcoming.length > 0 ? (
        <p>{`Then: ${status.upcoming.map((s) => `${s.title} from ${formatDate(s.startsAt)}`).join(', ')}.`}</p>
      ) : null}
      <Link href="/my-account/super">Manage your membership</Link>
    </div>
  );
}

function MemberView({ plans }: { plans: SuperPlan[] }) {
  const status = useAsync((signal) => edge.superStatus({ signal }), []);
  const [extending, setExtending] = useState(false);
  return (
    <>
      <AsyncContent state={status}>{(data) => (data.status === 'SUPER' ? <MemberSummary status={data} /> : null)}</AsyncContent>
      {extending ? (
        <>
          <h2 className="acct-membership__subtitle">Extend your membership</h2>
          <p className="acct-membership__lead">The days of the plan you choose are added after your membership ends.</p>
          <PlanList plans={plans} extending />
        </>
      ) : (
        <Button variant="secondary" onClick={() => setExtending(true)}>
          EXTEND
        </Button>
      )}
    </>
  );
}

export function MembershipPage() {
  const user = useCurrentUser();
  const member = isSuperMember(user);
  const plans = useAsync((signal) => edge.superPlans({ signal }), []);
  return (
    <section className="acct-membership" aria-label="Tiffin One plans">
      <h1 className="acct-membership__title">Tiffin One</h1>
      {member ? null : <p className="acct-membership__lead">Free deliveries and extra discounts on every order. Choose your plan.</p>}
      <AsyncContent state={plans}>{(data) => (member ? <MemberView plans={data.plans} /> : <PlanList plans={data.plans} extending={false} />)}</AsyncContent>
    </section>
  );
}
