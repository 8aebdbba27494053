/** Tiffin One plans (GET /api/super/plans). */
import { edge } from '@tiffin/api-client';
import { AsyncContent, formatPrice, useAsync } from '@tiffin/design-system';

export function MembershipPage() {
  const state = useAsync((signal) => edge.superPlans({ signal }), []);
  return (
    <section className="acct-membership" aria-label="Tiffin One plans">
      <h1 className="acct-membership__title">Tiffin One</h1>
      <AsyncContent state={state}>
        {(data) => (
          <ul className="acct-plans">
            {data.plans.map((plan) => (
              <li key={plan.planId} className={plan.recommended ? 'acct-plan acct-plan--recommended' : 'acct-plan'}>
                {plan.recommended && plan.recommendedText ? <span className="acct-plan__badge">{plan.recommendedText}</span> : null}
                <h3 className="acct-plan__name">{plan.title || plan.planName}</h3>
                <p className="acct-plan__price">
                  {plan.basePrice !== plan.finalPrice ? <s>{formatPrice(plan.basePrice)}</s> : null} <strong>{formatPrice(plan.finalPrice)}</strong>
                </p>
                <ul className="acct-plan__benefits">
                  {plan.planElement.map((benefit) => (
                    <li key={benefit}>{benefit}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </AsyncContent>
    </section>
  );
}
