/**
 * The guest's copy of the cart in the browser (docs/cart-merge.md).
 *
 * The cart service keeps a guest's cart under the guest session, and that stays the truth. This
 * copy is what lets the cart outlive the session: when the session cookie is gone (expired,
 * cleared) the next page's first fetch finds no cart, and the store sends this copy back as a
 * normal update, which the server prices (`store.ts`). After sign-in the cart follows the account
 * on the server, so the copy is dropped.
 *
 * It holds choices only: the restaurant id, the delivery address id, and each line's item id,
 * quantity and chosen variation and add-on ids, never a name or a price. What is read back is
 * checked field by field, because anything (an older version, a hand edit) may be stored there;
 * a copy that does not parse is no copy. This module never calls the edge.
 */
import { CART_VERSION_KEY, storageKey, type Cart, type CartLineSelection, type CartUpdateRequest } from '@tiffin/contract';
import { toUpdateRequest } from './draft';

/** The cart version key, with the product's storage prefix (`tfn_dweb_cartV2`). */
export const GUEST_CART_KEY = storageKey(CART_VERSION_KEY);

/** The stored form's version: a copy of another version is ignored, not guessed at. */
const VERSION = 2;

/** At most this many lines are read back (the cart allows 50 units, so never more lines). */
const MAX_LINES = 50;

export interface GuestCartCopy {
  restaurantId: string;
  /** The saved address the cart delivers to, when one was chosen (`address_id` of the cart). */
  addressId: string | null;
  cartItems: CartLineSelection[];
}

/** Where the copy lives: `localStorage` in the browser; may be missing or throw (privacy modes). */
export type CopyStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;

/** The copy of a cart as the server answered it, or null when it has no lines. */
export function guestCartCopyOf(cart: Cart): GuestCartCopy | null {
  const { restaurantId, cartItems } = toUpdateRequest(cart);
  if (!restaurantId || cartItems.length === 0) return null;
  return { restaurantId, addressId: cart.address_id ? String(cart.address_id) : null, cartItems };
}

/** The POST /api/cart body that restores a copy: selections only; the server prices them. */
export function restoreRequest(copy: GuestCartCopy): CartUpdateRequest {
  return {
    restaurantId: copy.restaurantId,
    cartItems: copy.cartItems,
    ...(copy.addressId ? { address_id: copy.addressId } : {}),
  };
}

function isId(value: unknown): value is string | number {
  return (typeof value === 'string' && value.trim() !== '') || (typeof value === 'number' && Number.isSafeInteger(value));
}

function ids<K extends string>(value: unknown, key: K): Array<{ group_id: string } & Record<K, string>> | null {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return null;
  const out: Array<{ group_id: string } & Record<K, string>> = [];
  for (const entry of value) {
    const e = entry as Record<string, unknown> | null;
    if (!e || !isId(e.group_id) || !isId(e[key])) return null;
    out.push({ group_id: String(e.group_id), [key]: String(e[key]) } as { group_id: string } & Record<K, string>);
  }
  return out;
}

function parseLine(value: unknown): CartLineSelection | null {
  const line = value as Record<string, unknown> | null;
  if (!line || typeof line !== 'object' || !isId(line.menu_item_id)) return null;
  const quantity = line.quantity;
  if (typeof quantity !== 'number' || !Number.isSafeInteger(quantity) || quantity < 1) return null;
  const addons = ids(line.addons, 'choice_id');
  const variants = ids(line.variants, 'variation_id');
  if (!addons || !variants) return null;
  return { menu_item_id: String(line.menu_item_id), quantity, addons, variants };
}

/** Reads a stored copy; anything malformed, of another version or without lines is null. */
export function parseGuestCartCopy(raw: string | null | undefined): GuestCartCopy | null {
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  const value = parsed as Record<string, unknown> | null;
  if (!value || typeof value !== 'object' || value.v !== VERSION || !isId(value.restaurantId)) return null;
  if (!Array.isArray(value.cartItems) || value.cartItems.length === 0 || value.cartItems.length > MAX_LINES) return null;
  const cartItems: CartLineSelection[] = [];
  for (const entry of value.cartItems) {
    const line = parseLine(entry);
    if (!line) return null;
    cartItems.push(line);
  }
  const addressId = isId(value.addressId) ? String(value.addressId) : null;
  return { restaurantId: String(value.restaurantId), addressId, cartItems };
}

export function serializeGuestCartCopy(copy: GuestCartCopy): string {
  return JSON.stringify({ v: VERSION, restaurantId: copy.restaurantId, addressId: copy.addressId, cartItems: copy.cartItems });
}

/** The copy in a storage: read, write (null removes it), clear. Storage failures are swallowed. */
export function createGuestCartCopy(storage: () => CopyStorage) {
  return {
    read(): GuestCartCopy | null {
      try {
        return parseGuestCartCopy(storage()?.getItem(GUEST_CART_KEY));
      } catch {
        return null;
      }
    },
    write(copy: GuestCartCopy | null): void {
      try {
        if (copy) storage()?.setItem(GUEST_CART_KEY, serializeGuestCartCopy(copy));
        else storage()?.removeItem(GUEST_CART_KEY);
      } catch {
        // Full or disabled storage: the server's guest cart still holds it for this session.
      }
    },
    clear(): void {
      try {
        storage()?.removeItem(GUEST_CART_KEY);
      } catch {
        // Nothing stored, nothing to remove.
      }
    },
  };
}

export type GuestCartCopyStore = ReturnType<typeof createGuestCartCopy>;
