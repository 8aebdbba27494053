/**
 * The cart tooltip of the search page: when the cart's item
 * count rises, it shows after 1000 ms and hides by itself 4000 ms later (the spec leaves the
 * cart tooltip's own timeout open; this is the generic tooltip's auto-hide). The first count the
 * page hears is the cart as it already was, never a rise.
 */
import { on, type Cart } from '@tiffin/contract';
import { useEffect, useState } from 'react';

export const CART_TOOLTIP_DELAY_MS = 1000;
export const CART_TOOLTIP_HIDE_MS = 4000;

/** Whether going from `previous` (null: not heard yet) to `next` items should show the tooltip. */
export function cartCountRose(previous: number | null, next: number): boolean {
  return previous !== null && next > previous;
}

/** Items in a cart (null: not fetched yet), counted as the cart store announces them. */
export function cartCount(cart: Cart | null | undefined): number | null {
  if (!cart) return null;
  return cart.cartItemsCount ?? cart.cartItems.reduce((sum, line) => sum + line.quantity, 0);
}

/**
 * Listens to `cart:updated` while mounted, starting from `initialCount` (the cart as the page
 * found it); `visible` is true while the tooltip is showing.
 */
export function useCartTooltip(initialCount: number | null): { visible: boolean; hide: () => void } {
  const [visible, setVisible] = useState(false);
  const [baseline] = useState(initialCount);
  useEffect(() => {
    let previous: number | null = baseline;
    let showTimer: ReturnType<typeof setTimeout> | undefined;
    let hideTimer: ReturnType<typeof setTimeout> | undefined;
    const off = on('cart:updated', ({ count }) => {
      const rose = cartCountRose(previous, count);
      previous = count;
      if (!rose) return;
      clearTimeout(showTimer);
      clearTimeout(hideTimer);
      showTimer = setTimeout(() => {
        setVisible(true);
        hideTimer = setTimeout(() => setVisible(false), CART_TOOLTIP_HIDE_MS);
      }, CART_TOOLTIP_DELAY_MS);
    });
    return () => {
      off();
      clearTimeout(showTimer);
      clearTimeout(hideTimer);
    };
  }, [baseline]);
  return { visible, hide: () => setVisible(false) };
}
