/**
 * The Tiffin One checkout (/checkout/super): the plan the membership page put in the cart, its
 * price and bill (the cart service's), and the ordinary checkout's ways to pay. The order is a
 * SUBSCRIPTION with no address, paid like any other (`payment-attempt.tsx`); once it is confirmed
 * the membership page's confirmation shows what was bought.
 *
 * Nobody signed in (an empty user state) is sent to the membership page, where buying starts. A
 * cart with food as well as the plan is an ordinary order, delivered to an address: /checkout.
 * Cash on delivery is not offered: nothing is delivered, so no one could collect it.
 */
import { fetchCart, useCart } from '@tiffin/cart-store';
import { Bill, PlanLine } from '@tiffin/cart-store/ui';
import { getCurrentUser, navigate, subscribeCurrentUser, type CartWithMembership, type PlaceOrderPayment } from '@tiffin/contract';
import { ErrorState, Link, Skeleton } from '@tiffin/design-system';
import { useEffect, useSyncExternalStore } from 'react';
import { AccountStep } from '../checkout/AccountStep';
import { usePaymentAttempt } from '../checkout/payment-attempt';
import { PaymentStep } from '../checkout/PaymentStep';

export const MEMBERSHIP_PAGE = '/tiffin-one';

/** Where a confirmed plan's order goes: the membership confirmation, which finds it by its order. */
export function membershipConfirmationHref(orderId: string): string {
  return `${MEMBERSHIP_PAGE}/confirm?order_id=${encodeURIComponent(orderId)}`;
}

export function MembershipCheckoutPage() {
  const user = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, () => null);
  const { cart: storeCart, error, updating } = useCart();
  const cart = storeCart as CartWithMembership | null;
  const attempt = usePaymentAttempt({ onConfirmed: (orderId) => navigate(membershipConfirmationHref(orderId)) });

  // A plan bought with food is part of an ordinary order, delivered to an address: /checkout.
  const withFood = (cart?.cartItems.length ?? 0) > 0;
  useEffect(() => {
    if (!user) navigate(MEMBERSHIP_PAGE, { replace: true });
    else if (withFood) navigate('/checkout', { replace: true });
  }, [user, withFood]);

  useEffect(() => {
    fetchCart({ force: true }).catch(() => {
      // Kept in the store; the page shows its own state for a cart it cannot read.
    });
  }, []);

  if (!user || withFood) return null;
  if (!cart) {
    if (!error) return <Skeleton height={320} />;
    return (
      <ErrorState
        title="We could not load your checkout"
        message="Sorry! This should not have happened. Please retry."
        actionLabel="Retry"
        onAction={() => void fetchCart({ force: true }).catch(() => {})}
      />
    );
  }
  const plans = cart.subscriptionItems ?? [];
  if (plans.length === 0) {
    return (
      <ErrorState role="region" title="No Tiffin One plan in your cart" message="Choose a plan to join Tiffin One.">
        <Link href={MEMBERSHIP_PAGE} className="chk-button-link">
          SEE TIFFIN ONE PLANS
        </Link>
      </ErrorState>
    );
  }

  const toPay = cart.bill?.to_pay ?? null;
  const pay = (payment: PlaceOrderPayment) => {
    if (toPay === null) return;
    attempt.pay({ order_type: 'SUBSCRIPTION', to_pay: toPay }, payment);
  };

  return (
    <div className="chk-checkout chk-checkout--plan">
      <div className="chk-checkout__steps">
        <AccountStep user={user} />
        <PaymentStep signedIn toPay={toPay} blockedReason={null} busy={attempt.inProgress || updating} onPay={pay} cashOnDelivery={false} />
        {attempt.progress}
        <p className="chk-step__hint">Membership fees are non-refundable. Your benefits start as soon as the payment is confirmed.</p>
      </div>
      <aside className="chk-checkout__cart" aria-label="Your plan">
        <h2 className="chk-step__title">Tiffin One</h2>
        {plans.map((plan) => (
          <PlanLine key={plan.planId} plan={plan} />
        ))}
        {cart.bill ? <Bill bill={cart.bill} updating={updating} /> : null}
        <Link href={MEMBERSHIP_PAGE}>Change plan</Link>
      </aside>
      {attempt.dialog}
    </div>
  );
}
