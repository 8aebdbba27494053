/**
 * @tiffin/cart-store — the one browser-side cart, shared by every microfrontend as a Module
 * Federation singleton (libs/build-config), so the menu's ADD button, the header flyout and the
 * cart page all read and change the same cart.
 *
 * - `cart-key`: the cart key rule (the server's)
 * - `draft`: pure transforms of a cart (add, set quantity, replace) and the POST body
 * - `store`: the queue, optimistic display, fetch and rollback, coupons, note and cutlery
 *   (`createCartStore`)
 * - `preferences`: what stays in the browser (the delivery address id) and the note and cutlery rules
 * - `guest-cart`: a guest's copy of the cart in the browser (`cartV2`), restored when the guest
 *   session is lost (docs/cart-merge.md)
 * - this file: the page's store instance wired to the edge client, the toast API and
 *   `cart:updated`, following sign-in and sign-out (`auth:changed`), its functions, and the React
 *   hooks `useCart` and `useCartPreferences`
 * - `ui` (`@tiffin/cart-store/ui`, a separate entry): the cart's UI pieces more than one page shows
 *
 * This entry owns no UI. Only this package calls the cart routes for the browser (the shell's
 * start-up badge read and checkout's `cart/calculate` aside).
 */
import { apiClient, markInitialReplyUsed, peekInitialEnvelope } from '@tiffin/api-client';
import { emit, getCurrentUser, on, showToast, type Cart } from '@tiffin/contract';
import { useSyncExternalStore } from 'react';
import { createGuestCartCopy } from './guest-cart';
import { createPreferences } from './preferences';
import { createCartStore } from './store';

export { cartKey } from './cart-key';
export { selectionOfLine } from './draft';
export { ORDER_NOTE_MAX_LENGTH, cutlerySelected, sanitiseNote } from './preferences';
export { DifferentRestaurantError, isDifferentRestaurantError } from './errors';
export { createCartStore, failureMessage } from './store';
export { GUEST_CART_KEY } from './guest-cart';
export type { CartSelection, CartSnapshot, OptimisticDisplay } from './types';

/** The customer's note, delivery address and cutlery choice, kept in the browser. */
const preferences = createPreferences();

/** A guest's cart choices in localStorage (`tfn_dweb_cartV2`). */
const guestCopy = createGuestCartCopy(() => {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
});

const store = createCartStore({
  client: apiClient,
  takeInitial: (query) => {
    const carried = peekInitialEnvelope<Cart>('cart', query);
    if (carried) markInitialReplyUsed();
    return carried;
  },
  toast: (text) => showToast({ text, status: 'error' }),
  announce: (count) => emit('cart:updated', { count }),
  forgetDeliveryAddress: preferences.forgetDeliveryAddress,
  guest: { isGuest: () => getCurrentUser() === null, copy: guestCopy },
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
/** Combine-or-replace: the line with this key becomes the given selection. */
export const changeLine = store.changeLine;
/** The customisation "Repeat last" adds again (one unit), or null when the item is not in the cart. */
export const lastSelectionOf = store.lastSelectionOf;
/** Units of this item over all its lines (the ADD button / stepper). */
export const quantityOfItem = store.quantityOfItem;
/** The lines of this item (to decrement the right line when an item has several). */
export const linesOfItem = store.linesOfItem;
/** Forgets the local cart without a call (logout, tests). */
export const resetCart = store.resetCart;
/** Forgets which item was added last (e.g. once its tooltip has been shown). */
export const removeLastAddedItemId = store.removeLastAddedItemId;

/**
 * When the signed-in customer changes (sign-in, sign-out, another account), the cart this page
 * holds is someone else's, so it is dropped and fetched again (forced). On sign-in the edge has merged the guest session's cart into the account's
 * (docs/cart-merge.md), so the fetch shows the merged cart and `cart:updated` moves the badge. A
 * profile change (same customer) fetches nothing. Once signed in, the guest's copy in the browser
 * is dropped: the server merged it (as the guest session's cart) and the cart follows the account.
 */
let cartOwner: string | null | undefined;
function followSignIn(): () => void {
  cartOwner = getCurrentUser()?.customer_id ?? null;
  return on('auth:changed', (user) => {
    const owner = user?.customer_id ?? null;
    if (owner === cartOwner) return;
    cartOwner = owner;
    if (owner !== null) guestCopy.clear();
    // A saved address is the account's: a guest (or another account) cannot deliver to it.
    preferences.forgetDeliveryAddress();
    store.resetCart();
    store.fetchCart({ force: true }).catch(() => {
      // Kept in the store (statusCode) for whichever page shows the cart.
    });
  });
}
/**
 * On page load: signed in, a guest copy left in the browser is stale (the account's cart is on the
 * server); a guest with a copy gets the cart fetched now, so a lost guest session is restored
 * (and the badge announced) before any cart is shown.
 */
function restoreOnLoad(): void {
  if (getCurrentUser() !== null) {
    guestCopy.clear();
    return;
  }
  if (guestCopy.read()) {
    store.fetchCart().catch(() => {
      // Kept in the store (statusCode) for whichever page shows the cart.
    });
  }
}
if (typeof window !== 'undefined') {
  followSignIn();
  restoreOnLoad();
}

export const getPreferences = preferences.getPreferences;
export const subscribePreferences = preferences.subscribePreferences;
/** Applies a coupon; rejects with the server's reason (not toasted) when it does not apply. */
export const applyCoupon = store.applyCoupon;
export const removeCoupon = store.removeCoupon;
/** Drops a FREEBIE coupon's free item ("1 Free Delight for you"). */
export const removeReward = store.removeReward;
/** The note to the restaurant, kept with the cart (&, < and > removed). */
export const setOrderNote = store.setOrderNote;
/** The cutlery choice for the cart's restaurant (selected: don't send cutlery). */
export const setCutlerySelection = store.setCutlerySelection;

/**
 * The delivery address, kept in storage and the `deliveryAddressId` cookie, which the edge reads
 * to bill delivery there; the cart is then fetched again (forced, `?address_id=`) with the new
 * bill, so the bill follows the choice even where the cookie cannot be written.
 */
export function setDeliveryAddress(id: string | null): Promise<import('@tiffin/contract').Cart> {
  preferences.setDeliveryAddressId(id);
  return store.fetchCart({ force: true, addressId: id });
}

/** The cart snapshot, re-rendering on every change. */
export function useCart(): ReturnType<typeof getCartSnapshot> {
  return useSyncExternalStore(subscribe, getCartSnapshot, getCartSnapshot);
}
