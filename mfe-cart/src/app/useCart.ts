/**
 * The cart as the edge holds it (GET /api/cart). Every successful fetch announces the item count
 * with `cart:updated`, so the header badge follows whatever this microfrontend last saw.
 */
import { edge } from '@tiffin/api-client';
import { emit, type Cart } from '@tiffin/contract';
import { useAsync } from '@tiffin/design-system';

export function useCart() {
  return useAsync(async (signal) => {
    const cart: Cart = await edge.cart({ signal });
    emit('cart:updated', { count: cart.cartItemsCount ?? 0 });
    return cart;
  }, []);
}
