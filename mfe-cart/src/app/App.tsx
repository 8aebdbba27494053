/**
 * mfe_cart/App: the cart page (/cart), reading the shared cart store (@tiffin/cart-store): the
 * restaurant with its delivery time, the lines with quantity steppers and what changed (out of
 * stock, a new price), cutlery, the note, the coupon box, where to deliver, the bill with each
 * line's tooltip (a cancellation fee carried from a cancelled cash order too, with the cart's
 * message saying why), what the cart says about Tiffin One (the plan in the cart, what membership
 * saved, the plan it suggests to a non-member, added in one press), To Pay and the way to checkout.
 * Every amount is the cart service's.
 */
import { fetchCart, useCart } from '@tiffin/cart-store';
import type { RemoteAppProps } from '@tiffin/contract';
import { Bill, CancellationMessage, CartLines, CartMembership, CartRestaurant, CouponBox } from '@tiffin/cart-store/ui';
import { Button, ErrorState, formatPrice, Link, MfeRoot, PageDrawn, Skeleton } from '@tiffin/design-system';
import { useEffect } from 'react';
import { Cutlery, DeliveryAddress, OrderNote } from './CartOptions';
import { blocksCheckout, CartFailure, CartNotice } from './CartStatus';
import './cart.css';

function CartPage() {
  const { cart, statusCode, error, updating } = useCart();

  useEffect(() => {
    // A failure is kept in the store (statusCode) and shown below.
    fetchCart().catch(() => {});
  }, []);

  if (!cart) {
    return error ? (
      <>
        <CartFailure statusCode={statusCode} />
        <PageDrawn />
      </>
    ) : (
      <Skeleton height={240} />
    );
  }

  if (!cart.restaurant_details || cart.cartItems.length === 0) {
    return (
      <ErrorState role="region" title="Your cart is empty" message="You can go to home page to view more restaurants">
        <Link href="/" className="cart-page__cta">
          SEE RESTAURANTS NEAR YOU
        </Link>
        <PageDrawn />
      </ErrorState>
    );
  }

  const hasUnavailable = cart.cartItems.some((line) => line.in_stock !== 1);
  const blocked = hasUnavailable || blocksCheckout(statusCode) || !!cart.min_cart_message;
  return (
    <section className="cart-page" aria-label="Cart">
      <PageDrawn />
      <CartRestaurant cart={cart} />
      <CartNotice statusCode={statusCode} />
      <CartLines cart={cart} editable />
      <Cutlery cart={cart} />
      <OrderNote cart={cart} />
      <CouponBox cart={cart} />
      <DeliveryAddress cart={cart} />
      <CancellationMessage cart={cart} />
      <CartMembership cart={cart} busy={updating} />
      {cart.bill ? (
        <Bill bill={cart.bill} updating={updating} />
      ) : (
        <div className="cart-page__bill">
          <span>Item Total</span>
          <strong data-testid="cart-item-total">{formatPrice(cart.item_total)}</strong>
        </div>
      )}
      {cart.min_cart_message ? (
        <p className="cart-page__blocked" role="status">
          {cart.min_cart_message}
        </p>
      ) : null}
      {blocked ? (
        <>
          {hasUnavailable ? <p className="cart-page__blocked">Remove the unavailable items to proceed.</p> : null}
          <Button block disabled>
            Proceed to checkout
          </Button>
        </>
      ) : (
        <Link href="/checkout" className="cart-page__cta">
          Proceed to checkout
        </Link>
      )}
    </section>
  );
}

export default function App(_props: RemoteAppProps) {
  return (
    <MfeRoot mfe="mfe-cart" version={__MFE_VERSION__} className="cart-root">
      <CartPage />
    </MfeRoot>
  );
}
