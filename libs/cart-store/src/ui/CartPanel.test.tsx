import { fixtures, installFakeEdge } from '@tiffin/api-client/testing';
import type { Cart } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addItem, resetCart } from '../index';
import { CartPanel } from './index';

afterEach(() => {
  cleanup();
  resetCart();
  vi.unstubAllGlobals();
});

const billed = (): Cart => ({
  ...fixtures.cart(),
  bill: {
    lines: [
      { key: 'ITEM_TOTAL', label: 'Item Total', amount: 55800, tooltip: null },
      { key: 'DELIVERY_FEE', label: 'Delivery Fee | 2.4 kms', amount: 2500, tooltip: 'Delivery fee for 2.4 kms.' },
      { key: 'GST', label: 'GST', amount: 2915, tooltip: '5% on food and packaging + 18% on fees.' },
    ],
    to_pay: 61215,
  },
  estimated_sla_min: 25,
  estimated_sla_max: 35,
});

describe("the menu's cart panel", () => {
  it('invites the visitor to order when the cart is empty', async () => {
    installFakeEdge({ '/api/cart': fixtures.emptyCart() });
    render(<CartPanel />);
    expect(await screen.findByText('Cart Empty')).toBeTruthy();
  });

  it('shows the restaurant with its delivery time, the items, the bill with tooltips and the total', async () => {
    installFakeEdge({ '/api/cart': billed() });
    render(<CartPanel />);
    const panel = await screen.findByRole('complementary', { name: 'Your cart' });
    await within(panel).findByText('Meghana Biryani House');
    expect(within(panel).getByText('Delivery in 25-35 MINS')).toBeTruthy();
    expect(within(panel).getByRole('group', { name: 'Quantity of Chicken Dum Biryani' }).textContent).toContain('2');
    fireEvent.click(within(panel).getByRole('button', { name: 'About GST' }));
    expect(within(panel).getByRole('tooltip').textContent).toBe('5% on food and packaging + 18% on fees.');
    expect(within(panel).getByTestId('menu-cart-total').textContent).toBe('₹612.15');
    expect(within(panel).getByRole('link', { name: 'CHECKOUT' }).getAttribute('href')).toBe('/cart');
    expect(within(panel).getByRole('region', { name: 'Coupons' })).toBeTruthy();
  });

  it('marks the line of the item added last', async () => {
    const naan = { cart_key: '88002', menu_item_id: '88002', name: 'Butter Naan', quantity: 1, isVeg: 1, in_stock: 1, base_price: 5000, final_price: 5000, addons: [], variants: [] };
    const before = billed();
    installFakeEdge({
      '/api/cart': (_url: URL, init?: RequestInit) =>
        init?.method === 'POST' ? { ...before, cartItems: [...before.cartItems, naan], cartItemsCount: 3, item_total: 60800 } : before,
    });
    render(<CartPanel />);
    const panel = await screen.findByRole('complementary', { name: 'Your cart' });
    await within(panel).findByText('Meghana Biryani House');
    expect(panel.querySelector('.cart-line--last-added')).toBeNull();
    await act(async () => {
      await addItem('1042', { menu_item_id: '88002', quantity: 1 });
    });
    await waitFor(() => expect(panel.querySelector('.cart-line--last-added')?.getAttribute('data-cart-key')).toBe('88002'));
  });
});
