/**
 * The header badge's count: the count the page was served with (the edge's initial state), or,
 * when the page carries none, the cart as the edge has it at start-up (GET /api/cart); then every
 * `cart:updated` the cart microfrontend emits. An event that arrives while the first fetch is
 * still in flight is newer than that reply, so the reply is then ignored.
 */
import { edge } from '@tiffin/api-client';
import { on } from '@tiffin/contract';
import { useEffect, useState } from 'react';
import { initialCartCount } from '../initial-state';

export function useCartCount(): number {
  const [count, setCount] = useState(() => initialCartCount() ?? 0);
  useEffect(() => {
    if (initialCartCount() !== undefined) return on('cart:updated', ({ count: next }) => setCount(next));
    let superseded = false;
    const controller = new AbortController();
    const off = on('cart:updated', ({ count: next }) => {
      superseded = true;
      setCount(next);
    });
    edge.cart({ signal: controller.signal }).then(
      (cart) => {
        if (!superseded) setCount(cart.cartItemsCount ?? 0);
      },
      () => {
        // No cart yet or the cart service is down: the badge simply stays at 0.
      },
    );
    return () => {
      off();
      controller.abort();
    };
  }, []);
  return count;
}
