/**
 * What the cart says about Tiffin One, beside a bill (the cart page's and both checkouts'): the
 * plan in the cart, what being a member saved on this bill ("You saved ₹25 with Tiffin One"), and,
 * for a non-member with food in the cart, the plan the cart suggests with what it would save, added
 * in one press (the plan and the food are then one order). Every amount and word is the cart
 * service's.
 */
import { customerMessage, edge } from '@tiffin/api-client';
import { fetchCart } from '@tiffin/cart-store';
import type { CartSubscriptionItem, CartWithMembership } from '@tiffin/contract';
import { Button, formatPrice } from '@tiffin/design-system';
import { useState } from 'react';
import './CartMembership.css';

export function PlanLine({ plan }: { plan: CartSubscriptionItem }) {
  return (
    // The test id is the one the browser tests know the plan line by, wherever it is drawn.
    <div className="cart-plan" data-testid="checkout-plan">
      <p className="cart-plan__name">
        <strong>{plan.planName}</strong> · {plan.title}
      </p>
      <p className="cart-plan__days">{`${plan.durationDays} days of free deliveries and extra discounts`}</p>
      <p className="cart-plan__price">
        {plan.basePrice > plan.price ? <s>{formatPrice(plan.basePrice)}</s> : null} <strong>{formatPrice(plan.price)}</strong>
      </p>
    </div>
  );
}

/** `busy`: the page has a change of its own under way, so adding the plan waits. */
export function CartMembership({ cart, busy }: { cart: CartWithMembership; busy: boolean }) {
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nudge = cart.subscriptionNudge;

  const addPlan = async (planId: string) => {
    setAdding(true);
    setError(null);
    try {
      await edge.addSubscriptionToCart(planId);
      // Billed again to the address chosen on the page, with the plan's line and its benefits.
      await fetchCart({ force: true, addressId: cart.address_id ?? null });
    } catch (failure) {
      setError(customerMessage(failure));
    } finally {
      setAdding(false);
    }
  };

  return (
    <>
      {(cart.subscriptionItems ?? []).map((plan) => (
        <PlanLine key={plan.planId} plan={plan} />
      ))}
      {cart.memberSavingsMessage ? (
        <p className="cart-member-savings" data-testid="member-savings">
          {cart.memberSavingsMessage}
        </p>
      ) : null}
      {nudge && (cart.subscriptionItems ?? []).length === 0 ? (
        <div className="cart-nudge" role="region" aria-label="Tiffin One">
          <p className="cart-nudge__message">{nudge.message}</p>
          <p className="cart-nudge__plan">{`${nudge.planName} · ${nudge.title} for ${formatPrice(nudge.price)}`}</p>
          <Button variant="secondary" disabled={adding || busy} onClick={() => void addPlan(String(nudge.planId))}>
            Add Tiffin One
          </Button>
          {error ? (
            <p className="cart-nudge__error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
