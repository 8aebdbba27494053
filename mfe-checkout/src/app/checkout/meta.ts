/**
 * Whether checkout has what it needs. The four answers are the checkout's own words for what is
 * missing; the page turns each into a state with a way out (retry, restaurants, add an address,
 * pick an address).
 */
import type { Cart } from '@tiffin/contract';

export type CheckoutMetaError = 'state not found' | 'cart data not found' | 'Addresses are empty' | 'restaurantdetails or cart address is empty';

export function checkoutMetaError({ cart, signedIn }: { cart: Cart | null; signedIn: boolean }): CheckoutMetaError | null {
  if (!cart) return 'state not found';
  if (cart.cartItems.length === 0) return 'cart data not found';
  if (!cart.restaurant_details) return 'restaurantdetails or cart address is empty';
  // A visitor has no addresses yet: the account step comes first.
  if (!signedIn) return null;
  const addresses = cart.addresses ?? [];
  if (addresses.length === 0) return 'Addresses are empty';
  // An address the restaurant does not deliver to is as good as none.
  if (!addresses.some((a) => a.id === cart.address_id && a.delivery_valid === 1)) return 'restaurantdetails or cart address is empty';
  return null;
}
