/** Tiffin One in the account: a teaser of the plans (GET super/plans) leading to /tiffin-one. */
import { edge } from '@tiffin/api-client';
import { AsyncContent, formatPrice, Link, useAsync } from '@tiffin/design-system';

export function TiffinOne() {
  const state = useAsync((signal) => edge.superPlans({ signal }), []);
  return (
    <AsyncContent state={state}>
      {({ plans }) => {
        const cheapest = plans.reduce<number | null>((min, p) => (min === null || p.finalPrice < min ? p.finalPrice : min), null);
        return (
          <div className="acct-card acct-one">
            <h3>Tiffin One</h3>
            <p>Free deliveries and extra discounts on every order.</p>
            {cheapest !== null ? <p className="acct-one__price">Plans from {formatPrice(cheapest)}</p> : null}
            <ul className="acct-one__plans">
              {plans.map((plan) => (
                <li key={plan.planId}>
                  {plan.title || plan.planName}: <strong>{formatPrice(plan.finalPrice)}</strong>
                </li>
              ))}
            </ul>
            <Link href="/tiffin-one" className="acct-button-link">
              EXPLORE TIFFIN ONE
            </Link>
          </div>
        );
      }}
    </AsyncContent>
  );
}
