import { installFakeEdge, reply } from '@tiffin/api-client/testing';
import { on, storageKey } from '@tiffin/contract';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addItem, clearCart, fetchCart, resetCart, useCart } from './index';

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
