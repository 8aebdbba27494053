/**
 * What stays in the browser about a cart: the chosen delivery address id, kept in
 * storage and in the `deliveryAddressId` cookie, which the edge reads to bill delivery to it
 * (docs/edge-api.md "Where to deliver"); clearing the cart or signing out forgets it.
 * The order note and the cutlery choice are kept by the cart service with the cart (so a guest's
 * survive a reload with the guest's cart); the pure rules for them live here too. It never prices
 * anything and never calls the edge.
 */
import { storageKey } from '@tiffin/contract';

/** Longest order note the cart service keeps (docs/edge-api.md). */
export const ORDER_NOTE_MAX_LENGTH = 200;

interface CartPreferences {
  deliveryAddressId: string | null;
}

const ADDRESS_KEY = storageKey('deliveryAddressId');
const ADDRESS_COOKIE = 'deliveryAddressId';

/** Text sanitising removes &, < and >; the note is capped at 200 characters. */
export function sanitiseNote(text: string): string {
  return text.replace(/[&<>]/g, '').slice(0, ORDER_NOTE_MAX_LENGTH);
}

/**
 * Whether "don't send cutlery" holds for this cart: only the cart's restaurant's choice
 * counts, the default is not selected, and a cart without a cutlery option is never selected.
 */
export function cutlerySelected(
  selection: { restaurantId: string | null; selected: boolean } | null | undefined, restaurantId: string | null | undefined, hasCutleryOption = true): boolean {
  if (!hasCutleryOption || !restaurantId || !selection) return false;
  return selection.restaurantId === String(restaurantId) && selection.selected;
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const found = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) || null : null;
}

function load(): CartPreferences {
  let stored: string | null = null;
  try {
    stored = storage()?.getItem(ADDRESS_KEY) ?? null;
  } catch {
    // Unavailable storage: the cookie still says.
  }
  return { deliveryAddressId: stored || readCookie(ADDRESS_COOKIE) };
}

export function createPreferences() {
  let state: CartPreferences | null = null;
  const listeners = new Set<() => void>();

  function get(): CartPreferences {
    if (!state) state = load();
    return state;
  }

  function save(next: CartPreferences): void {
    state = next;
    try {
      if (next.deliveryAddressId) storage()?.setItem(ADDRESS_KEY, next.deliveryAddressId);
      else storage()?.removeItem(ADDRESS_KEY);
    } catch {
      // Storage can be unavailable (privacy modes): the cookie still carries the choice.
    }
    if (typeof document !== 'undefined') {
      document.cookie = next.deliveryAddressId
        ? `${ADDRESS_COOKIE}=${encodeURIComponent(next.deliveryAddressId)}; Max-Age=${365 * 24 * 3600}; Path=/; SameSite=Lax`
        : `${ADDRESS_COOKIE}=; Max-Age=0; Path=/; SameSite=Lax`;
    }
    for (const listener of [...listeners]) listener();
  }

  return {
    getPreferences: get,
    subscribePreferences(listener: () => void): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    setDeliveryAddressId(id: string | null): void {
      save({ deliveryAddressId: id ? String(id) : null });
    },
    /** Clearing the cart removes the saved delivery address id. */
    forgetDeliveryAddress(): void {
      save({ deliveryAddressId: null });
    },
  };
}

export type Preferences = ReturnType<typeof createPreferences>;
