import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import { resetCurrentUserForTests, setCurrentUser, type OrderSummary } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asha, captureNavigation } from '../../test/fixtures';
import App from '../App';

function openOrders(orders: OrderSummary[], reorder?: unknown) {
  installFakeEdge({
    '/api/cart': fixtures.emptyCart(),
    '/api/order/all': { orders, total_orders: orders.length },
    '/api/order/reorder': reorder,
  });
  setCurrentUser(asha);
  return render(<App route={{ id: 'account', pageType: 'ACCOUNT', params: { tab: 'orders' } }} path="/my-account/orders" />);
}

let nav: ReturnType<typeof captureNavigation>;

beforeEach(() => {
  resetCurrentUserForTests();
  nav = captureNavigation();
});

afterEach(() => {
  cleanup();
  nav.off();
  vi.unstubAllGlobals();
});

describe('an order card', () => {
  it('shows what was ordered, when, for how much and how it ended, and opens the order', async () => {
    openOrders([fixtures.orderSummary()]);
    fireEvent.click(await screen.findByRole('tab', { name: 'Past Orders' }));
    const card = screen.getByTestId('order');

    expect(card.textContent).toContain('Paneer Tikka x 2, Naan x 1');
    expect(card.textContent).toContain('ORDER #123 | 26 Nov 2026, 8:30 pm');
    expect(card.textContent).toContain('Delivered on 26 Nov 2026, 9:10 pm');
    expect(card.textContent).toContain('Total Paid: ₹456.50');
    const open = within(card).getByRole('link', { name: 'Order #123 from Meghana Foods' });
    expect(open.getAttribute('href')).toBe('/my-account/orders/123');
    fireEvent.click(open);
    expect(nav.targets).toEqual(['/my-account/orders/123']);
  });

  it('offers TRACK only while the order is under way, and HELP about this order always', async () => {
    openOrders([fixtures.orderSummary({ order_id: '124', order_status: 'PICKED_UP', delivered_at: '' }), fixtures.orderSummary()]);
    const active = await screen.findByTestId('order');
    expect(within(active).getByRole('link', { name: 'TRACK' }).getAttribute('href')).toBe('/track-order/124');
    expect(within(active).getByRole('link', { name: 'HELP' }).getAttribute('href')).toBe('/support?order_id=124');
    expect(active.textContent).toContain('Picked up');

    fireEvent.click(screen.getByRole('tab', { name: 'Past Orders' }));
    const past = screen.getByTestId('order');
    expect(within(past).queryByRole('link', { name: 'TRACK' })).toBeNull();
    expect(within(past).getByRole('link', { name: 'HELP' }).getAttribute('href')).toBe('/support?order_id=123');
  });
});

describe('REORDER from the list', () => {
  it('goes to checkout when everything went into the cart as before', async () => {
    openOrders([fixtures.orderSummary()], { item_count: 3, unavailable_items: [], price_changes: [] });
    fireEvent.click(await screen.findByRole('tab', { name: 'Past Orders' }));
    fireEvent.click(screen.getByRole('button', { name: 'REORDER' }));
    await waitFor(() => expect(nav.targets).toEqual(['/checkout']));
  });

  it('reports what changed first', async () => {
    openOrders([fixtures.orderSummary()], { item_count: 2, unavailable_items: [], price_changes: [{ name: 'Naan', previous_price: 4900, price: 5500 }] });
    fireEvent.click(await screen.findByRole('tab', { name: 'Past Orders' }));
    fireEvent.click(screen.getByRole('button', { name: 'REORDER' }));
    const report = await screen.findByRole('dialog', { name: 'Some items have changed' });
    expect(report.textContent).toContain('Naan: ₹49 ₹55');
    expect(within(report).queryByRole('region', { name: 'Not available' })).toBeNull();
    expect(nav.targets).toEqual([]);
  });

  it("shows why a reorder failed on that order's card", async () => {
    openOrders([fixtures.orderSummary()], reply(200, 1, 'This restaurant is closed right now.'));
    fireEvent.click(await screen.findByRole('tab', { name: 'Past Orders' }));
    fireEvent.click(screen.getByRole('button', { name: 'REORDER' }));
    expect((await within(screen.getByTestId('order')).findByRole('alert')).textContent).toBe('This restaurant is closed right now.');
    expect(nav.targets).toEqual([]);
  });
});
