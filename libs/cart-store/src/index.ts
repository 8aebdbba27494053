/**
 * @tiffin/cart-store — the one browser-side cart, shared by every microfrontend as a Module
 * Federation singleton (libs/build-config), so the menu's ADD button, the header flyout and the
 * cart page all read and change the same cart.
 *
 * - `cart-key`: the cart key rule (the server's, spec §4)
 * - `draft`: pure transforms of a cart (add, set quantity, replace) and the POST body
 * - `store`: the queue, optimistic display, fetch and rollback (`createCartStore`)
 * - this file: the page's store instance wired to the edge client, the toast API and
 *   `cart:updated`, its functions, and the React hook `useCart`
 *
 * It owns no UI. Only this package calls GET/POST /api/cart for the browser (the shell's
 * start-up badge read aside).
 */
import { apiClient } from '@tiffin/api-client';
import { emit, showToast, storageKey } from '@tiffin/contract';
import { useSyncExternalStore } from 'react';
import { createCartStore } from './store';

export { cartKey } from './cart-key';
export { selectionOfLine } from './draft';
export { DifferentRestaurantError, isDifferentRestaurantError } from './errors';
export { createCartStore, failureMessage, failureStatus, type CartStore, type CartStoreDeps } from './store';
export type { CartRestaurantDetails, CartSelection, CartSnapshot, OptimisticDisplay } from './types';

/** Spec §4: clearing the cart removes the saved delivery address id (cookie and storage). */
function forgetDeliveryAddress(): void {
  try {
    globalThis.localStorage?.removeItem(storageKey('deliveryAddressId'));
  } catch {
    // Storage can be unavailable (privacy modes); nothing to forget then.
  }
  if (typeof document !== 'undefined') document.cookie = 'deliveryAddressId=; Max-Age=0; Path=/; SameSite=Lax';
}

const store = createCartStore({
  client: apiClient,
  toast: (text) => showToast({ text, status: 'error' }),
  announce: (count) => emit('cart:updated', { count }),
  forgetDeliveryAddress,
});

/** The cart as shown now; the same object until something changes (for `useSyncExternalStore`). */
export const getCartSnapshot = store.getSnapshot;
export const subscribe = store.subscribe;
/** GET /api/cart; joins a fetch in flight unless `force`. */
export const fetchCart = store.fetchCart;
/**
 * Adds `sel.quantity` to the line with the same cart key, or a new line. Rejects with
 * `DifferentRestaurantError` when the cart holds another restaurant's items, and with the edge's
 * `ApiError` when the update fails (the store has already rolled back and toasted it).
 * `display` (optional) names the new line until the server's reply arrives.
 */
export const addItem = store.addItem;
/** Starts a new cart with only this line (after the customer agreed to drop the old one). */
export const replaceCart = store.replaceCart;
/** Sets a line's quantity by its `cart_key`; 0 removes the line; an unknown key changes nothing. */
export const setLineQuantity = store.setLineQuantity;
export const clearCart = store.clearCart;
/** Combine-or-replace: the line with this key becomes the given selection (spec §4). */
export const changeLine = store.changeLine;
/** The customisation "Repeat last" adds again (one unit), or null when the item is not in the cart. */
export const lastSelectionOf = store.lastSelectionOf;
/** Units of this item over all its lines (the ADD button / stepper). */
export const quantityOfItem = store.quantityOfItem;
/** The lines of this item (to decrement the right line when an item has several). */
export const linesOfItem = store.linesOfItem;
/** Forgets the local cart without a call (logout, tests). */
export const resetCart = store.resetCart;

/** The cart snapshot, re-rendering on every change. */
export function useCart(): ReturnType<typeof getCartSnapshot> {
  return useSyncExternalStore(subscribe, getCartSnapshot, getCartSnapshot);
}
