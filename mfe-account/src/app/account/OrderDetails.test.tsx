import { fixtures, installFakeEdge, reply, type FakeReply } from '@tiffin/api-client/testing';
import { resetCurrentUserForTests, setCurrentUser, type OrderDetails, type ReorderResult } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { asha, bodyOf, captureNavigation } from '../../test/fixtures';
import App from '../App';

function openOrder(orderId = '123') {
  return render(<App route={{ id: 'account', pageType: 'ACCOUNT', params: { tab: 'orders', subtab: orderId } }} path={`/my-account/orders/${orderId}`} />);
}

/**
 * The edge with order 123's details (one answer per call, the last one again once they run out)
 * and, when given, its answers to cancel and reorder, recording what those were sent.
 */
function orderEdge(details: Array<OrderDetails | FakeReply>, answers: { cancel?: unknown; reorder?: unknown } = {}) {
  const sent = { cancel: [] as Array<{ path: string; body: Record<string, unknown> }>, reorder: [] as Record<string, unknown>[], details: 0 };
  installFakeEdge({
    '/api/cart': fixtures.emptyCart(),
    '/api/order/details': () => {
      sent.details += 1;
      return details.length > 1 ? details.shift() : details[0];
    },
    '/api/cancel-only/order/123': (url: URL, init?: RequestInit) => (sent.cancel.push({ path: url.pathname, body: bodyOf(init) }), answers.cancel),
    '/api/order/reorder': (_url: URL, init?: RequestInit) => (sent.reorder.push(bodyOf(init)), answers.reorder),
  });
  setCurrentUser(asha);
  return sent;
}

const cancelAnswer = (order: OrderDetails, refund_amount: number, refund_destination: 'SOURCE' | 'TIFFIN_MONEY', cancellation_fee = 0) => ({
  order: { ...order, order_status: 'CANCELLED', cancellable: false, refund: refund_amount > 0 ? { amount: refund_amount, destination: refund_destination } : null },
  cancellation_fee,
  refund_amount,
  refund_destination,
});

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

describe('an order’s page', () => {
  it('shows the items with their choices, the bill as rendered, the charges that apply, the address, payment, coupon and history', async () => {
    orderEdge([fixtures.orderDetails()]);
    openOrder();

    const page = await screen.findByRole('article', { name: 'Order #123' });
    expect(page.textContent).toContain('Meghana Foods');
    const items = within(within(page).getByRole('region', { name: 'Items' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['Paneer Tikka x 2Half, Extra mint chutney₹398', 'Naan x 1₹49']);

    const bill = within(page).getByRole('region', { name: 'Bill details' });
    const lines = within(bill).getAllByRole('listitem').slice(0, 5);
    expect(lines.map((li) => li.textContent)).toEqual(['Item Total₹447', 'Delivery Charges₹49', 'Taxes and Charges₹40', 'Coupon TIFFIN20-₹79.50', 'Total Paid₹456.50']);
    const charges = within(within(bill).getByRole('list', { name: 'Charges' })).getAllByRole('listitem');
    expect(charges.map((li) => li.textContent)).toEqual(['Delivery Charges₹49', 'Packing Charges₹20', 'GST₹15', 'Convenience Fee₹5']);

    expect(within(page).getByRole('region', { name: 'Delivery address' }).textContent).toContain('Flat 4B, 5th Block, Koramangala');
    const payment = within(page).getByRole('region', { name: 'Payment' }).textContent;
    expect(payment).toContain('Paid via Card');
    expect(payment).toContain('Coupon applied: TIFFIN20');
    const history = within(within(page).getByRole('region', { name: 'Status history' })).getAllByRole('listitem');
    expect(history.map((li) => li.textContent)).toEqual(['Order placed26 Nov 2026, 8:30 pm', 'Being prepared26 Nov 2026, 8:33 pm']);
  });

  it('offers tracking while under way, the invoice, help and reorder; no tracking or cancel once delivered', async () => {
    orderEdge([fixtures.orderDetails()]);
    openOrder();
    const page = await screen.findByRole('article', { name: 'Order #123' });
    expect(within(page).getByRole('link', { name: 'Track order' }).getAttribute('href')).toBe('/track-order/123');
    const invoice = within(page).getByRole('link', { name: 'Download invoice' });
    expect([invoice.getAttribute('href'), invoice.hasAttribute('download')]).toEqual(['/invoice/download/123', true]);
    expect(within(page).getByRole('link', { name: 'Help' }).getAttribute('href')).toBe('/support?order_id=123');
    expect(within(page).getByRole('button', { name: 'Cancel order' })).toBeTruthy();
    expect(within(page).getByRole('button', { name: 'Reorder' })).toBeTruthy();
    cleanup();

    orderEdge([fixtures.orderDetails({ order_status: 'DELIVERED', cancellable: false })]);
    openOrder();
    const delivered = await screen.findByRole('article', { name: 'Order #123' });
    expect(within(delivered).queryByRole('link', { name: 'Track order' })).toBeNull();
    expect(within(delivered).queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(within(delivered).getByRole('link', { name: 'Download invoice' })).toBeTruthy();
  });

  it('says when the order is not there', async () => {
    orderEdge([reply(404, 404, 'Order not found')]);
    openOrder('999');
    expect(await screen.findByRole('heading', { name: "There's nothing here" })).toBeTruthy();
  });

  it('names the Tiffin One plan a SUBSCRIPTION order bought, and offers no reorder', async () => {
    orderEdge([
      {
        ...fixtures.orderDetails({ order_status: 'DELIVERED', cancellable: false, order_items: [] }),
        order_type: 'SUBSCRIPTION',
        plan: { planId: '2', planName: 'Tiffin One', title: '3 months', durationDays: 90, price: 19900 },
      } as OrderDetails,
    ]);
    openOrder();
    const part = await screen.findByRole('region', { name: 'Tiffin One' });
    expect(part.textContent).toBe('Tiffin OneTiffin One · 3 months (90 days)₹199');
    expect(screen.queryByRole('button', { name: 'Reorder' })).toBeNull();
  });

  it("says what the membership saved on a member's order", async () => {
    orderEdge([{ ...fixtures.orderDetails(), member_savings: 4000 } as OrderDetails]);
    openOrder();
    expect((await screen.findByRole('region', { name: 'Tiffin One' })).textContent).toContain('You saved ₹40 with Tiffin One.');
  });

  it('sends a visitor home', () => {
    installFakeEdge({});
    openOrder();
    expect(nav.targets).toEqual(['/']);
  });
});

describe('cancelling an order', () => {
  it('says it is free, lets the refund go to Tiffin Money, and shows the cancelled order with its refund', async () => {
    const order = fixtures.orderDetails();
    const sent = orderEdge([order], { cancel: cancelAnswer(order, 45650, 'TIFFIN_MONEY') });
    openOrder();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));

    const dialog = screen.getByRole('dialog', { name: 'Cancel order #123?' });
    expect(dialog.textContent).toContain('Cancelling now is free.');
    const choices = within(within(dialog).getByRole('group', { name: 'Refund to' })).getAllByRole('radio') as HTMLInputElement[];
    expect(choices.map((c) => [c.parentElement!.textContent, c.checked])).toEqual([
      ['Original payment method (Card)', true],
      ['Tiffin Money', false],
    ]);
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Tiffin Money' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'CANCEL ORDER' }));

    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('Your order has been cancelled.');
    expect(notice.textContent).toContain('₹456.50 will be refunded to your Tiffin Money.');
    expect(notice.textContent).not.toContain('cancellation fee');
    expect(sent.cancel).toEqual([{ path: '/api/cancel-only/order/123', body: { refund_to: 'TIFFIN_MONEY', _csrf: 'test-csrf' } }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    const page = screen.getByRole('article', { name: 'Order #123' });
    expect(page.textContent).toContain('Cancelled ·');
    expect(within(page).queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(within(page).queryByRole('link', { name: 'Track order' })).toBeNull();
  });

  it('states the fee when cancelling costs something, and refunds the rest to the original method by default', async () => {
    const order = fixtures.orderDetails({ cancellation_fee: 2500, payment_method: 'upi_collect' });
    const sent = orderEdge([order], { cancel: cancelAnswer(order, 43150, 'SOURCE', 2500) });
    openOrder();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));

    const dialog = screen.getByRole('dialog', { name: 'Cancel order #123?' });
    expect(dialog.textContent).toContain('A cancellation fee of ₹25 applies.');
    expect(within(dialog).getByRole('radio', { name: 'Original payment method (UPI)' })).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'CANCEL ORDER' }));

    const notice = await screen.findByRole('status');
    expect(notice.textContent).toContain('A cancellation fee of ₹25 was charged.');
    expect(notice.textContent).toContain('₹431.50 will be refunded to your original payment method (UPI).');
    expect(sent.cancel[0]!.body.refund_to).toBe('SOURCE');
  });

  it('asks nothing about a refund for cash on delivery', async () => {
    const order = fixtures.orderDetails({ payment_method: 'cod' });
    const sent = orderEdge([order], { cancel: cancelAnswer(order, 0, 'SOURCE') });
    openOrder();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));

    const dialog = screen.getByRole('dialog', { name: 'Cancel order #123?' });
    expect(within(dialog).queryByRole('group', { name: 'Refund to' })).toBeNull();
    expect(within(dialog).queryByRole('radio')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'CANCEL ORDER' }));
    const notice = await screen.findByRole('status');
    expect(notice.textContent).not.toContain('refunded');
    expect(sent.cancel[0]!.body.refund_to).toBe('SOURCE');
  });

  it('keeps the order when the customer keeps it', async () => {
    const sent = orderEdge([fixtures.orderDetails()]);
    openOrder();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    fireEvent.click(screen.getByRole('button', { name: 'KEEP ORDER' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent.cancel).toEqual([]);
  });

  it("shows a refusal in the edge's words, then shows the order as it now is", async () => {
    const sent = orderEdge([fixtures.orderDetails(), fixtures.orderDetails({ order_status: 'PICKED_UP', cancellable: false })], {
      cancel: reply(200, 1, 'Your order has been picked up and can no longer be cancelled.'),
    });
    openOrder();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel order' }));
    fireEvent.click(screen.getByRole('button', { name: 'CANCEL ORDER' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Your order has been picked up and can no longer be cancelled.');
    fireEvent.click(screen.getByRole('button', { name: 'CLOSE' }));
    await waitFor(() => expect(screen.getByRole('article', { name: 'Order #123' }).textContent).toContain('Picked up ·'));
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(sent.details).toBe(2);
  });
});

describe('ordering again from an order’s page', () => {
  const changed: ReorderResult = {
    item_count: 2,
    unavailable_items: [{ name: 'Paneer Tikka', quantity: 2 }],
    price_changes: [{ name: 'Naan', previous_price: 4900, price: 5500 }],
  };

  it('reports what is gone and what costs more, then goes to the cart when asked', async () => {
    const sent = orderEdge([fixtures.orderDetails()], { reorder: changed });
    openOrder();
    fireEvent.click(await screen.findByRole('button', { name: 'Reorder' }));

    const report = await screen.findByRole('dialog', { name: 'Some items have changed' });
    expect(within(within(report).getByRole('region', { name: 'Not available' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Paneer Tikka x 2']);
    expect(within(within(report).getByRole('region', { name: 'Price changed' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Naan: ₹49 ₹55']);
    expect(sent.reorder).toEqual([{ order_id: '123', _csrf: 'test-csrf' }]);
    expect(nav.targets).toEqual([]);

    fireEvent.click(within(report).getByRole('button', { name: 'VIEW CART' }));
    expect(nav.targets).toEqual(['/cart']);
  });

  it('goes straight to checkout when everything went into the cart as before', async () => {
    orderEdge([fixtures.orderDetails()], { reorder: { item_count: 3, unavailable_items: [], price_changes: [] } });
    openOrder();
    fireEvent.click(await screen.findByRole('button', { name: 'Reorder' }));
    await waitFor(() => expect(nav.targets).toEqual(['/checkout']));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers no cart when nothing could go in', async () => {
    orderEdge([fixtures.orderDetails()], { reorder: { item_count: 0, unavailable_items: [{ name: 'Paneer Tikka', quantity: 2 }, { name: 'Naan', quantity: 1 }], price_changes: [] } });
    openOrder();
    fireEvent.click(await screen.findByRole('button', { name: 'Reorder' }));
    const report = await screen.findByRole('dialog', { name: 'None of these items can be ordered right now' });
    expect(within(report).queryByRole('button', { name: 'VIEW CART' })).toBeNull();
    fireEvent.click(within(report).getByRole('button', { name: 'CLOSE' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(nav.targets).toEqual([]);
  });
});
