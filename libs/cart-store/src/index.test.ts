import { installFakeEdge, reply } from '@tiffin/api-client/testing';
import { emit, on, storageKey, type User } from '@tiffin/contract';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addItem, clearCart, fetchCart, getCartSnapshot, resetCart, useCart } from './index';

afterEach(() => {
  resetCart();
  vi.unstubAllGlobals();
});

const emptyCart = { cartId: 'c1', restaurant_details: null, cartItems: [], cartItemsCount: 0, item_total: 0 };

describe('the page cart store', () => {
  it('announces cart:updated with the item count after a fetch', async () => {
    installFakeEdge({ '/api/cart': { ...emptyCart, cartItemsCount: 0 } });
    const counts: number[] = [];
    const off = on('cart:updated', ({ count }) => counts.push(count));
    await fetchCart();
    off();
    expect(counts).toEqual([0]);
  });

  it("toasts the server's message through the shell's toast API when an update fails", async () => {
    installFakeEdge({
      '/api/cart': (_url: URL, init?: RequestInit) =>
        init?.method === 'POST' ? reply(200, 11, 'Sorry! Please remove some items from your cart to proceed') : emptyCart,
    });
    const toasts: Array<{ text: string; status?: string }> = [];
    const off = on('toast:show', (toast) => toasts.push(toast));
    await expect(addItem('1042', { menu_item_id: '88001', quantity: 51 })).rejects.toThrow();
    off();
    expect(toasts).toMatchObject([{ text: 'Sorry! Please remove some items from your cart to proceed', status: 'error' }]);
  });

  it('useCart re-renders when the cart changes', async () => {
    const line = { cart_key: '88001', menu_item_id: '88001', name: 'Naan', quantity: 1, isVeg: 1, in_stock: 1, base_price: 5000, final_price: 5000, addons: [], variants: [] };
    const filled = { cartId: 'c1', restaurant_details: { id: '1042', name: 'M', area_name: 'K', cloudinary_image_id: 'r' }, cartItems: [line], cartItemsCount: 1, item_total: 5000 };
    installFakeEdge({ '/api/cart': (_url: URL, init?: RequestInit) => (init?.method === 'POST' ? filled : emptyCart) });
    const { result } = renderHook(() => useCart());
    expect(result.current.cart).toBeNull();
    await act(async () => {
      void addItem('1042', { menu_item_id: '88001', quantity: 1 }).catch(() => {});
    });
    await waitFor(() => expect(result.current).toMatchObject({ updating: false, cart: { item_total: 5000 } }));
  });

  it('clearCart forgets the saved delivery address', async () => {
    installFakeEdge({ '/api/cart': emptyCart });
    localStorage.setItem(storageKey('deliveryAddressId'), '42');
    await clearCart();
    expect(localStorage.getItem(storageKey('deliveryAddressId'))).toBeNull();
  });
});

describe('sign-in and sign-out', () => {
  const user = (customer_id: string): User => ({
    customer_id,
    mobile: '9876543210',
    name: 'Asha',
    email: '',
    pendingEmail: '',
    emailVerified: false,
    optional_map: {},
    preferences: { sms: { orders: true, recommendations: true, reminders: false } },
  });
  const line = { cart_key: '88001', menu_item_id: '88001', name: 'Naan', quantity: 1, isVeg: 1, in_stock: 1, base_price: 5000, final_price: 5000, addons: [], variants: [] };
  const restaurant = { id: '1042', name: 'M', area_name: 'K', cloudinary_image_id: 'r' };

  it('fetches the (merged) cart again when a customer signs in, and announces its count', async () => {
    // The guest's cart, then (after sign-in) the account's cart with the guest's lines merged in.
    let signedIn = false;
    const fetch = installFakeEdge({
      '/api/cart': () =>
        signedIn
          ? { ...emptyCart, restaurant_details: restaurant, cartItems: [{ ...line, quantity: 3, final_price: 15000 }], cartItemsCount: 3, item_total: 15000 }
          : { ...emptyCart, restaurant_details: restaurant, cartItems: [line], cartItemsCount: 1, item_total: 5000 },
    });
    await fetchCart();
    const counts: number[] = [];
    const off = on('cart:updated', ({ count }) => counts.push(count));
    const gets = fetch.mock.calls.length;

    signedIn = true;
    emit('auth:changed', user('17'));
    await waitFor(() => expect(getCartSnapshot().cart?.cartItemsCount).toBe(3));
    off();

    expect(fetch.mock.calls.length).toBe(gets + 1);
    expect(counts).toEqual([3]);
  });

  it('does not fetch again when the same customer only changed their profile', async () => {
    const fetch = installFakeEdge({ '/api/cart': emptyCart });
    emit('auth:changed', user('18'));
    await waitFor(() => expect(getCartSnapshot().cart).not.toBeNull());
    const calls = fetch.mock.calls.length;
    emit('auth:changed', { ...user('18'), name: 'Asha Rao' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetch.mock.calls.length).toBe(calls);
  });

  it('drops the account cart on sign-out and shows the new session\'s (empty) cart', async () => {
    let signedIn = true;
    installFakeEdge({
      '/api/cart': () => (signedIn ? { ...emptyCart, restaurant_details: restaurant, cartItems: [line], cartItemsCount: 1, item_total: 5000 } : emptyCart),
    });
    emit('auth:changed', user('19'));
    await waitFor(() => expect(getCartSnapshot().cart?.cartItemsCount).toBe(1));
    signedIn = false;
    emit('auth:changed', null);
    await waitFor(() => expect(getCartSnapshot().cart?.cartItemsCount).toBe(0));
  });
});
