/**
 * One plan of the `plan-listing` widget, with every field the membership service sends (its
 * icon, title and name, prices and discount, days, benefits, the recommended badge and the call to
 * action), and what became of the customer's press on it: checking, refused with the reason,
 * "notify me" where it is not sold, or the request kept.
 */
import type { SuperPlan } from '@tiffin/contract';
import { Button, formatDate, formatPrice, Image, imageUrl } from '@tiffin/design-system';
import type { BuyState } from './useBuyPlan';

function Outcome({ plan, state, onNotify }: { plan: SuperPlan; state: BuyState; onNotify: () => void }) {
  if (state.kind === 'idle' || state.planId !== plan.planId) return null;
  switch (state.kind) {
    case 'busy':
      return (
        <p className="acct-plan__note" role="status">
          Please wait…
        </p>
      );
    case 'refused': {
      const { availability } = state;
      const canNotify = availability.reason === 'NOT_IN_CITY' && !!availability.city;
      return (
        <div className="acct-plan__note acct-plan__note--refused" role="alert">
          <p>{availability.message}</p>
          {canNotify ? (
            <Button variant="secondary" onClick={onNotify}>
              NOTIFY ME
            </Button>
          ) : null}
        </div>
      );
    }
    case 'notified':
      return (
        <p className="acct-plan__note" role="status">
          {state.cityName
            ? `We will let you know when ${plan.title} of Tiffin One is sold in ${state.cityName}.`
            : `We will let you know when ${plan.title} of Tiffin One is sold where you are.`}
          {state.notification ? ` Asked on ${formatDate(state.notification.requestedAt)}.` : ''}
        </p>
      );
    case 'failed':
      return (
        <p className="acct-plan__note acct-plan__note--refused" role="alert">
          {state.message}
        </p>
      );
  }
}

export function PlanCard({
  plan,
  state,
  onBuy,
  onNotify,
  actionLabel,
}: {
  plan: SuperPlan;
  state: BuyState;
  onBuy: () => void;
  onNotify: () => void;
  /** The button's words when not the plan's own call to action ("Extend by 3 months"). */
  actionLabel?: string;
}) {
  const busy = state.kind === 'busy';
  const name = plan.title || plan.planName;
  return (
    <li className={plan.recommended ? 'acct-plan acct-plan--recommended' : 'acct-plan'} aria-label={`${plan.planName} ${name}`} data-plan-id={plan.planId}>
      {plan.recommended && plan.recommendedText ? <span className="acct-plan__badge">{plan.recommendedText}</span> : null}
      <div className="acct-plan__head">
        <Image src={imageUrl(plan.icon, { w: 96, h: 96 })} alt="" width={48} height={48} eager className="acct-plan__icon" />
        <div>
          <h3 className="acct-plan__name">{name}</h3>
          <p className="acct-plan__plan-name">{`${plan.planName} · ${plan.durationDays} days`}</p>
        </div>
      </div>
      <p className="acct-plan__price">
        {plan.basePrice !== plan.finalPrice ? <s>{formatPrice(plan.basePrice)}</s> : null} <strong>{formatPrice(plan.finalPrice)}</strong>
      </p>
      {plan.discountDescription ? <p className="acct-plan__discount">{plan.discountDescription}</p> : null}
      <ul className="acct-plan__benefits" aria-label={`What ${name} gives you`}>
        {plan.planElement.map((benefit) => (
          <li key={benefit}>{benefit}</li>
        ))}
      </ul>
      <Button block disabled={busy} onClick={onBuy}>
        {actionLabel ?? (plan.cta.text || `Join for ${formatPrice(plan.finalPrice)}`)}
      </Button>
      <Outcome plan={plan} state={state} onNotify={onNotify} />
    </li>
  );
}
