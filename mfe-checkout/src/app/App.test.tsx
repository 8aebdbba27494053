import { installFakeEdge, reply } from '@tiffin/api-client/testing';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json';
import App from './App';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('mfe-checkout App', () => {
  it('lists the known payment groups and drops unknown ones', async () => {
    installFakeEdge({
      '/api/payment/get-methods': {
        payment_groups: [
          { group_name: 'UPI', payment_methods: [{ payment_code: 'upi_collect', name: 'UPI', enabled: true }] },
          { group_name: 'crypto', payment_methods: [{ payment_code: 'btc', name: 'Bitcoin', enabled: true }] },
        ],
      },
    });
    const { container } = render(<App route={{ id: 'payments', pageType: 'WEB_PAYMENTS', params: {} }} path="/payments" />);

    expect(await screen.findByRole('region', { name: 'UPI' })).toBeTruthy();
    expect(screen.queryByText('Bitcoin')).toBeNull();
    expect(container.querySelector('[data-mfe="mfe-checkout"]')?.getAttribute('data-mfe-version')).toBe(pkg.version);
  });

});

describe('order confirmation', () => {
  const route = { id: 'order-confirmation', pageType: 'CHECKOUT' as const, params: { orderId: '1000123' } };

  it('shows the placed order from the orders service, with the way to track it', async () => {
    const fetch = installFakeEdge({
      '/api/order/details': {
        order_id: '1000123',
        order_total: 45650,
        order_status: 'PLACED',
        order_time: '2026-11-26T12:00:00Z',
        restaurant_id: '1042',
        restaurant_name: 'Meghana Biryani House',
        payment_method: 'card',
        order_items: [
          { item_id: '88001', name: 'Chicken Dum Biryani', quantity: 2, subtotal: 41800 },
          { item_id: '88002', name: 'Raita', quantity: 1, subtotal: 3000 },
        ],
        bill: [{ key: 'ITEM_TOTAL', label: 'Item Total', amount: 44800 }],
        delivery_address: { address_id: '12', annotation: 'HOME', address: 'Flat 4B, 5th Block, Koramangala' },
      },
    });
    render(<App route={route} path="/order-confirmation/1000123" />);

    const page = await screen.findByRole('region', { name: 'Order placed' });
    expect(within(page).getByRole('heading', { name: 'Order placed' })).toBeTruthy();
    expect(page.textContent).toContain('Order #1000123');
    expect(page.textContent).toContain('Meghana Biryani House');
    const items = within(page).getByRole('list', { name: 'Items ordered' });
    expect(within(items).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['2 × Chicken Dum Biryani₹418', '1 × Raita₹30']);
    expect(page.textContent).toContain('Total paid₹456.50');
    expect(within(page).getByRole('link', { name: 'Track order' }).getAttribute('href')).toBe('/track-order/1000123');
    expect(String(fetch.mock.calls[0]![0])).toContain('/api/order/details?order_id=1000123');
  });

  it("says so when the order is not the customer's", async () => {
    installFakeEdge({ '/api/order/details': reply(404, 404, 'Order not found') });
    render(<App route={route} path="/order-confirmation/1000123" />);
    expect(await screen.findByRole('heading', { name: "There's nothing here" })).toBeTruthy();
  });
});
