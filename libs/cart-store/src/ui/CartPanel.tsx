/**
 * The menu page's cart panel: the restaurant with its delivery time, the items with
 * steppers, the bill lines with tooltips, the coupon box and a footer with the total and the way to
 * the cart. It shows the shared cart and changes it only through the store.
 */
import { fetchCart, useCart } from '@tiffin/cart-store';
import { formatPrice, Link } from '@tiffin/design-system';
import { useEffect } from 'react';
import { Bill } from './Bill';
import { CartLines } from './CartLines';
import { CartRestaurant } from './CartRestaurant';
import { CouponBox } from './CouponBox';
import './CartPanel.css';

export function CartPanel() {
  const { cart, updating, lastAddedItemId } = useCart();

  useEffect(() => {
    // Joins the fetch the page has started, if any.
    fetchCart().catch(() => {});
  }, []);

  if (!cart || !cart.restaurant_details || cart.cartItems.length === 0) {
    return (
      <aside className="cart-panel" aria-label="Your cart" data-testid="menu-cart-panel">
        <p className="cart-panel__title">Cart Empty</p>
        <p className="cart-panel__hint">Good food is always cooking! Go ahead, order some yummy items from the menu.</p>
      </aside>
    );
  }

  const total = cart.bill ? cart.bill.to_pay : cart.item_total;
  return (
    <aside className="cart-panel" aria-label="Your cart" data-testid="menu-cart-panel">
      <CartRestaurant cart={cart} as="p" />
      <CartLines cart={cart} editable lastAddedItemId={lastAddedItemId} />
      {cart.bill ? <Bill bill={cart.bill} updating={updating} /> : null}
      <CouponBox cart={cart} />
      <div className="cart-panel__footer">
        <span>
          {cart.bill ? 'TO PAY' : 'Subtotal'} <strong data-testid="menu-cart-total">{formatPrice(total)}</strong>
        </span>
        <Link href="/cart" className="cart-panel__checkout">
          CHECKOUT
        </Link>
      </div>
    </aside>
  );
}
