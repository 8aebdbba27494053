/**
 * A stand-in for @tiffin/cart-store in component tests (`vi.mock('@tiffin/cart-store', () =>
 * import('../test/fake-cart-store'))`): an in-memory cart with the store's API, whose changes
 * are `vi.fn`s so a test can assert on them or make them reject. Test-only; never imported by
 * production code.
 */
import { fixtures } from '@tiffin/api-client/testing';
import type { Cart, CartItem } from '@tiffin/contract';
import { useSyncExternalStore } from 'react';
import { vi } from 'vitest';

export interface CartSelection {
  menu_item_id: string;
  quantity: number;
  addons?: Array<{ group_id: string; choice_id: string }>;
  variants?: Array<{ group_id: string; variation_id: string }>;
}

export type OptimisticDisplay = { restaurant?: { name: string }; item?: { name: string } };

export class DifferentRestaurantError extends Error {
  override readonly name = 'DifferentRestaurantError';
  constructor(
    readonly currentRestaurantId: string,
    readonly currentRestaurantName: string,
  ) {
    super(`The cart holds items from ${currentRestaurantName}`);
  }
}

export function isDifferentRestaurantError(error: unknown): error is DifferentRestaurantError {
  return error instanceof DifferentRestaurantError;
}

export function cartKey(sel: Pick<CartSelection, 'menu_item_id' | 'addons' | 'variants'>): string {
  const ids = [...(sel.variants ?? []).map((v) => v.variation_id), ...(sel.addons ?? []).map((a) => a.choice_id)].sort();
  return [sel.menu_item_id, ...ids].join('|');
}

let cart: Cart | null = null;
const listeners = new Set<() => void>();
let snapshot: { cart: Cart | null; fetching: boolean; updating: boolean; statusCode: number; error: string | null } = {
  cart,
  fetching: false,
  updating: false,
  statusCode: 0,
  error: null,
};

function publish(): void {
  snapshot = { ...snapshot, cart };
  for (const listener of listeners) listener();
}

function line(sel: CartSelection): CartItem {
  return {
    cart_key: cartKey(sel),
    menu_item_id: sel.menu_item_id,
    name: '',
    quantity: sel.quantity,
    isVeg: 0,
    in_stock: 1,
    base_price: 0,
    final_price: 0,
    price_changed: false,
    previous_price: null,
    addons: (sel.addons ?? []).map((a) => ({ ...a, name: '', price: 0 })),
    variants: (sel.variants ?? []).map((v) => ({ ...v, group_name: '', name: '', price: 0 })),
  };
}

function withLines(restaurant: { id: string; name: string }, lines: CartItem[]): Cart {
  return {
    ...fixtures.emptyCart(),
    cartId: 'fake',
    restaurant_details: lines.length ? { id: restaurant.id, name: restaurant.name, area_name: '', cloudinary_image_id: '', opened: true } : null,
    cartItems: lines,
    cartItemsCount: lines.reduce((n, l) => n + l.quantity, 0),
    item_total: 0,
  };
}

/** Starts a test with this cart (default: empty). */
export function resetFakeCart(initial: { restaurant: { id: string; name: string }; lines: CartSelection[] } | null = null): void {
  cart = initial ? withLines(initial.restaurant, initial.lines.map(line)) : withLines({ id: '', name: '' }, []);
  lastSelections.clear();
  publish();
}

export const fetchCart = vi.fn(async () => cart);

const lastSelections = new Map<string, CartSelection>();

/** Like the store: the last selection added for an item while it is in the cart, one unit. */
export function lastSelectionOf(menuItemId: string): CartSelection | null {
  const lines = (cart?.cartItems ?? []).filter((l) => l.menu_item_id === menuItemId);
  if (lines.length === 0) return null;
  const remembered = lastSelections.get(menuItemId);
  if (remembered) return { ...remembered, quantity: 1 };
  const last = lines[lines.length - 1]!;
  return {
    menu_item_id: last.menu_item_id,
    quantity: 1,
    addons: last.addons.map((a) => ({ group_id: a.group_id, choice_id: a.choice_id })),
    variants: last.variants.map((v) => ({ group_id: v.group_id, variation_id: v.variation_id })),
  };
}

export const addItem = vi.fn(async (restaurantId: string, sel: CartSelection, _display?: OptimisticDisplay) => {
  const current = cart?.restaurant_details;
  if (current && current.id !== restaurantId) throw new DifferentRestaurantError(current.id, current.name);
  const key = cartKey(sel);
  const lines = cart?.cartItems ?? [];
  const existing = lines.find((l) => l.cart_key === key);
  const next = existing ? lines.map((l) => (l === existing ? { ...l, quantity: l.quantity + sel.quantity } : l)) : [...lines, line(sel)];
  cart = withLines(current ?? { id: restaurantId, name: '' }, next);
  lastSelections.set(sel.menu_item_id, sel);
  publish();
  return cart;
});

export const replaceCart = vi.fn(async (restaurantId: string, sel: CartSelection, _display?: OptimisticDisplay) => {
  cart = withLines({ id: restaurantId, name: '' }, [line(sel)]);
  publish();
  return cart;
});

export const setLineQuantity = vi.fn(async (key: string, quantity: number) => {
  const lines = (cart?.cartItems ?? []).map((l) => (l.cart_key === key ? { ...l, quantity } : l)).filter((l) => l.quantity > 0);
  cart = withLines(cart?.restaurant_details ?? { id: '', name: '' }, lines);
  publish();
  return cart;
});

export function quantityOfItem(menuItemId: string): number {
  return (cart?.cartItems ?? []).filter((l) => l.menu_item_id === menuItemId).reduce((n, l) => n + l.quantity, 0);
}

export function linesOfItem(menuItemId: string): CartItem[] {
  return (cart?.cartItems ?? []).filter((l) => l.menu_item_id === menuItemId);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getCartSnapshot() {
  return snapshot;
}

export function useCart() {
  return useSyncExternalStore(subscribe, () => snapshot);
}
