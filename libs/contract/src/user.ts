/**
 * The signed-in customer as every web app sees it: `null` for a visitor.
 *
 * It starts from the page's initial state (`<script id="tiffin-initial-state">`, whose `user` is the
 * session's `User` or `null`, docs/edge-api.md) and changes only through `setCurrentUser`, which
 * announces it with `auth:changed` so the header and every microfrontend update without a page
 * load. This package is a Module Federation singleton, so there is one value per page. It never
 * calls the edge: whoever signs in or out (mfe-account, the shell's Logout) sets it.
 */
import type { User } from './edge-types';
import { emit, on } from './events';
import { storageKey } from './storage';

const INITIAL_STATE_ELEMENT_ID = 'tiffin-initial-state';

/** The `user` of the page's initial state; null when absent, malformed or signed out. */
export function readInitialUser(doc: Document | undefined = typeof document === 'undefined' ? undefined : document): User | null {
  const text = doc?.getElementById(INITIAL_STATE_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const user = (JSON.parse(text) as { user?: unknown }).user;
    return isUser(user) ? user : null;
  } catch {
    return null;
  }
}

function isUser(value: unknown): value is User {
  return !!value && typeof value === 'object' && typeof (value as User).customer_id === 'string' && typeof (value as User).mobile === 'string';
}

let current: { user: User | null } | undefined;

/** The signed-in user, or null. Read lazily so it works before the initial state is parsed. */
export function getCurrentUser(): User | null {
  if (!current) current = { user: readInitialUser() };
  return current.user;
}

/** Replaces the user (sign-in, profile change, sign-out) and announces it with `auth:changed`. */
export function setCurrentUser(user: User | null): void {
  current = { user };
  emit('auth:changed', user);
}

/** For `useSyncExternalStore(subscribeCurrentUser, getCurrentUser)`. */
export function subscribeCurrentUser(listener: () => void): () => void {
  return on('auth:changed', () => listener());
}

/** Forgets the cached value so the next read comes from the initial state again (tests). */
export function resetCurrentUserForTests(): void {
  current = undefined;
}

/**
 * Whether the customer is a Tiffin One member: their record's `optional_map` holds a value equal to
 * SUPER in any case (the edge writes `super_status`; WAS_SUPER and NOT_SUPER are not members).
 */
export function isSuperMember(user: Pick<User, 'optional_map'> | null | undefined): boolean {
  if (!user?.optional_map) return false;
  return Object.values(user.optional_map).some((value) => typeof value === 'string' && value.trim().toUpperCase() === 'SUPER');
}

/** The customer's first name for the header ("Asha Rao" → "Asha"); the mobile when nameless. */
export function displayName(user: Pick<User, 'name' | 'mobile'>): string {
  const first = user.name.trim().split(/\s+/)[0];
  return first || user.mobile;
}

/** The delivery address id lives in a cookie and in storage under `deliveryAddressId`. */
const DELIVERY_ADDRESS_KEY = 'deliveryAddressId';

/**
 * The cart version key. Under it the cart store keeps a guest's cart choices in the
 * browser (`@tiffin/cart-store`, docs/cart-merge.md).
 */
export const CART_VERSION_KEY = 'cartV2';

/**
 * Clears the user's local bits on logout or account deletion (the bridge's logout removes the
 * delivery address cookie): the delivery address id in its cookie and in storage, and any guest
 * cart copy (a tab that looked like a guest's while the customer was signed in elsewhere may have
 * copied the account's cart there).
 */
export function forgetUserLocalState(): void {
  try {
    globalThis.localStorage?.removeItem(storageKey(DELIVERY_ADDRESS_KEY));
    globalThis.localStorage?.removeItem(storageKey(CART_VERSION_KEY));
  } catch {
    // Storage can be unavailable (privacy modes); nothing to forget then.
  }
  if (typeof document !== 'undefined') document.cookie = `${DELIVERY_ADDRESS_KEY}=; Max-Age=0; Path=/; SameSite=Lax`;
}
