/**
 * mfe_cart/App: the cart page (/cart). It reads the shared cart store (@tiffin/cart-store): the
 * restaurant, the lines with a quantity stepper, the item total and the way to checkout. The bill
 * (delivery fee, taxes, coupons) is priced at checkout, so this page only states that it will be.
 */
import { fetchCart, useCart } from '@tiffin/cart-store';
import type { RemoteAppProps } from '@tiffin/contract';
import { Button, ErrorState, formatPrice, Image, imageUrl, Link, MfeRoot, Skeleton } from '@tiffin/design-system';
import { useEffect } from 'react';
import { CartLines } from './CartLines';
import { CartFailure, CartNotice } from './CartStatus';
import './cart.css';

function CartPage() {
  const { cart, statusCode, error } = useCart();

  useEffect(() => {
    // A failure is kept in the store (statusCode) and shown below.
    fetchCart().catch(() => {});
  }, []);

  if (!cart) {
    return error ? <CartFailure statusCode={statusCode} /> : <Skeleton height={240} />;
  }

  if (!cart.restaurant_details || cart.cartItems.length === 0) {
    return (
      <ErrorState role="region" title="Your cart is empty" message="You can go to home page to view more restaurants">
        <Link href="/" className="cart-page__cta">
          SEE RESTAURANTS NEAR YOU
        </Link>
      </ErrorState>
    );
  }

  const restaurant = cart.restaurant_details;
  const hasUnavailable = cart.cartItems.some((line) => line.in_stock !== 1);
  return (
    <section className="cart-page" aria-label="Cart">
      <header className="cart-page__restaurant">
        {restaurant.cloudinary_image_id ? (
          <Image src={imageUrl(restaurant.cloudinary_image_id, { w: 100, h: 100 })} alt={restaurant.name} width={50} height={50} eager />
        ) : null}
        <div>
          <h1 className="cart-page__name">{restaurant.name}</h1>
          <p className="cart-page__area">{restaurant.area_name}</p>
        </div>
      </header>
      <CartNotice statusCode={statusCode} />
      <CartLines cart={cart} editable />
      <div className="cart-page__bill">
        <span>Item Total</span>
        <strong data-testid="cart-item-total">{formatPrice(cart.item_total)}</strong>
      </div>
      <p className="cart-page__note">Delivery fee, taxes and any coupon are added at checkout.</p>
      {hasUnavailable ? (
        <>
          <p className="cart-page__blocked">Remove the unavailable items to proceed.</p>
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
