/**
 * What happens once the edge has signed a customer in (a user going
 * from logged-out to logged-in triggers a cart fetch and may default the delivery address):
 * 1. the user becomes the page's user (`setCurrentUser` → `auth:changed`: the header updates);
 * 2. the cart is fetched again through the shared cart store (the edge merged the guest cart into
 *    the account's; the store announces the new count with `cart:updated`);
 * 3. with no location set, the default saved address becomes the location (@tiffin/contract
 *    `default-address`).
 * A failure of 2 or 3 never undoes the sign-in: the cart store toasts its own failures and a
 * customer without a default simply picks a location.
 */
import { edge } from '@tiffin/api-client';
import { fetchCart } from '@tiffin/cart-store';
import {
  applyDefaultAddress,
  getCurrentUser,
  getUserLocation,
  hasLatLng,
  setCurrentUser,
  shouldApplyDefaultAddress,
  type User,
} from '@tiffin/contract';

export async function completeSignIn(user: User, now: () => Date = () => new Date()): Promise<void> {
  const wasLoggedIn = getCurrentUser() !== null;
  setCurrentUser(user);
  // Not awaited: the sidebar closes without waiting for the cart; the badge follows `cart:updated`.
  void fetchCart({ force: true }).catch(() => undefined);
  const context = { wasLoggedIn, isLoggedIn: true, hasLocation: hasLatLng(getUserLocation()), cookies: document.cookie };
  if (shouldApplyDefaultAddress(context)) {
    try {
      const { addresses } = await edge.addresses();
      // Re-checked: the customer may have picked a location while the list was loading.
      if (!hasLatLng(getUserLocation())) applyDefaultAddress(addresses, now());
    } catch {
      // No default this time; the location picker still works.
    }
  }
}
