/**
 * The checkout page (/checkout): account, delivery address and payment beside the cart and its
 * bill, then one payment attempt at a time until the order is confirmed (`payment-attempt.tsx`).
 * The bill shown and paid is the one priced for the way to pay chosen (`payment-pricing.ts`), so
 * it carries that way's payment offer.
 *
 * Every bit of checkout state lives in this component, so leaving the page forgets it. A cart that
 * holds only a Tiffin One plan has nothing to deliver: its checkout is /checkout/super.
 */
import { fetchCart, setDeliveryAddress, useCart } from '@tiffin/cart-store';
import { Bill, CancellationMessage, CartLines, CartMembership, CartRestaurant } from '@tiffin/cart-store/ui';
import { chooseDefaultAddress, type Address, getCurrentUser, navigate, subscribeCurrentUser, type CartWithMembership, type PlaceOrderPayment } from '@tiffin/contract';
import { ErrorState, Link, Skeleton } from '@tiffin/design-system';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { AccountStep } from './AccountStep';
import { AddressStep } from './AddressStep';
import { checkoutMetaError } from './meta';
import { usePaymentAttempt } from './payment-attempt';
import { usePaymentPricing } from './payment-pricing';
import { PaymentStep } from './PaymentStep';

const NEW_ADDRESS_UNDELIVERABLE = 'Your new address is saved, but the restaurant does not deliver there. Choose another address.';

export function orderConfirmationHref(orderId: string): string {
  return `/order-confirmation/${encodeURIComponent(orderId)}`;
}

/** A cart of a Tiffin One plan and no food: paid at /checkout/super. */
export function isPlanOnlyCart(cart: CartWithMembership | null): boolean {
  return !!cart && cart.cartItems.length === 0 && (cart.subscriptionItems?.length ?? 0) > 0;
}

export function CheckoutPage() {
  const user = useSyncExternalStore(subscribeCurrentUser, getCurrentUser, () => null);
  const { cart, error, updating } = useCart();
  const attempt = usePaymentAttempt({ onConfirmed: (orderId) => navigate(orderConfirmationHref(orderId)) });
  const priced = usePaymentPricing(cart, !updating);
  const [addressBusy, setAddressBusy] = useState(false);
  const [addressNotice, setAddressNotice] = useState<string | null>(null);
  const defaulted = useRef(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    fetchCart({ force: true }).catch(() => {
      // Kept in the store; the page shows its own state for a cart it cannot read.
    });
    return () => {
      mounted.current = false;
    };
  }, []);

  const chooseAddress = (id: string) => {
    setAddressBusy(true);
    setAddressNotice(null);
    setDeliveryAddress(id)
      .catch(() => {})
      .finally(() => {
        if (mounted.current) setAddressBusy(false);
      });
  };

  // A new address is chosen only when this restaurant delivers there. The save reply's
  // delivery_valid says whether any restaurant does: with 0 the cart is only re-read, still billed
  // to the current choice, so the new address shows up in the list. With 1 the cart service has
  // the last word: the cart is billed to the new address, and if it answers that this restaurant
  // does not deliver there, the bill goes back to the address chosen before.
  const addressAdded = (saved: Address) => {
    const previous = (cart?.addresses ?? []).find((a) => a.id === cart?.address_id && a.delivery_valid === 1)?.id ?? null;
    setAddressBusy(true);
    setAddressNotice(null);
    const rebill = async (): Promise<boolean> => {
      if (saved.delivery_valid !== 1) {
        await fetchCart({ force: true, addressId: previous });
        return false;
      }
      const billed = await setDeliveryAddress(saved.id);
      if (billed.addresses?.some((a) => a.id === saved.id && a.delivery_valid === 1)) return true;
      await setDeliveryAddress(previous);
      return false;
    };
    rebill()
      .then((chosen) => {
        if (mounted.current && !chosen) setAddressNotice(NEW_ADDRESS_UNDELIVERABLE);
      })
      .catch(() => {
        // Kept in the store; the page shows its own state for a cart it cannot read.
      })
      .finally(() => {
        if (mounted.current) setAddressBusy(false);
      });
  };

  // Defaulting the address: work on weekday working hours, home otherwise, among the addresses
  // the restaurant delivers to, once per visit and only when none deliverable is chosen.
  useEffect(() => {
    if (!user || !cart || defaulted.current) return;
    const deliverable = (cart.addresses ?? []).filter((a) => a.delivery_valid === 1);
    const current = deliverable.find((a) => a.id === cart.address_id);
    if (current || deliverable.length === 0) return;
    const chosen = chooseDefaultAddress(deliverable, new Date());
    if (!chosen) return;
    defaulted.current = true;
    chooseAddress(chosen.id);
  }, [user, cart]);

  const planOnly = isPlanOnlyCart(cart);
  useEffect(() => {
    if (planOnly) navigate('/checkout/super', { replace: true });
  }, [planOnly]);

  // Exactly the bill shown: priced for this way to pay, so place-v2 finds the same total.
  const pay = (payment: PlaceOrderPayment) => {
    if (!cart || !priced.bill) return;
    attempt.pay({ address_id: cart.address_id ?? undefined, order_type: 'REGULAR', order_note: cart.order_comments || undefined, to_pay: priced.bill.to_pay }, payment);
  };

  if (planOnly || (!cart && !error)) return <Skeleton height={320} />;
  const meta = checkoutMetaError({ cart, signedIn: !!user });
  if (meta === 'state not found') {
    return (
      <ErrorState
        title="We could not load your checkout"
        message="Sorry! This should not have happened. Please retry."
        actionLabel="Retry"
        onAction={() => void fetchCart({ force: true }).catch(() => {})}
      />
    );
  }
  if (meta === 'cart data not found' || !cart) {
    return (
      <ErrorState role="region" title="Your cart is empty" message="You can go to home page to view more restaurants">
        <Link href="/restaurants" className="chk-button-link">
          SEE RESTAURANTS NEAR YOU
        </Link>
      </ErrorState>
    );
  }
  if (!cart.restaurant_details) {
    return (
      <ErrorState role="region" title="Your cart needs a look" message="We could not find the restaurant for the items in your cart.">
        <Link href="/cart" className="chk-button-link">
          Back to cart
        </Link>
      </ErrorState>
    );
  }

  const unavailable = cart.cartItems.some((line) => line.in_stock !== 1);
  const blockedReason = !user
    ? 'Log in to place your order.'
    : meta === 'Addresses are empty'
      ? 'Add a delivery address to place your order.'
      : meta === 'restaurantdetails or cart address is empty'
        ? 'Choose a delivery address to place your order.'
        : unavailable
          ? 'Some items are unavailable. Remove them from your cart to proceed.'
          : cart.min_cart_message;
  const busy = attempt.inProgress || updating || addressBusy || priced.repricing;

  return (
    <div className="chk-checkout">
      <div className="chk-checkout__steps">
        <AccountStep user={user} />
        <AddressStep cart={cart} signedIn={!!user} onChoose={chooseAddress} onAdded={addressAdded} notice={addressNotice} busy={addressBusy} />
        <PaymentStep
          signedIn={!!user}
          toPay={priced.bill?.to_pay ?? null}
          blockedReason={blockedReason}
          busy={busy}
          onPay={pay}
          onPricingChange={priced.onPricingChange}
          offerMessage={priced.offerMessage}
        />
        {attempt.progress}
      </div>
      <aside className="chk-checkout__cart" aria-label="Your order">
        <CartRestaurant cart={cart} as="p" />
        <CartLines cart={cart} />
        <CancellationMessage cart={cart} />
        <CartMembership cart={cart} busy={busy} />
        {priced.bill ? <Bill bill={priced.bill} updating={updating || addressBusy || priced.repricing} /> : null}
        <Link href="/cart">Edit cart</Link>
      </aside>
      {attempt.dialog}
    </div>
  );
}
