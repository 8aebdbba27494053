import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEdgeCalls } from './calls';
import { createApiClient } from './client';
import { SessionStore } from './session';
import { fixtures, installFakeEventSource } from './testing';

afterEach(() => {
  vi.unstubAllGlobals();
});

function client(reply: unknown) {
  const fetch = vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(reply), { status: 200 }));
  const calls = createEdgeCalls(createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch, session: new SessionStore(() => ({ csrfToken: 't' })) }));
  return { calls, fetch };
}

describe('edge calls', () => {
  it('asks address-recommend by latlng as "lat,lng"', async () => {
    const { calls, fetch } = client({ statusCode: 0, data: [] });
    await calls.addressRecommend({ lat: 12.9352, lng: 77.6245 });
    expect(fetch.mock.calls[0]![0]).toBe('/api/misc/address-recommend?latlng=12.9352%2C77.6245');
  });

  it('lists restaurants for the desktop web listing by default', async () => {
    const { calls, fetch } = client({ statusCode: 0, data: { cards: [] } });
    await calls.restaurants({ lat: 1, lng: 2 });
    expect(fetch.mock.calls[0]![0]).toBe('/api/restaurants/list/v5?lat=1&lng=2&page_type=DESKTOP_WEB_LISTING&offset=0');
  });

  it('accepts a cart reply with status 8 (items unavailable) as data', async () => {
    const { calls } = client({ statusCode: 8, statusMessage: 'Item(s) unavailable', data: { cartItemsCount: 2 } });
    await expect(calls.cart()).resolves.toEqual({ cartItemsCount: 2 });
  });

  it('posts the coupon calls to their paths with the CSRF token, the code only where it belongs', async () => {
    const { calls, fetch } = client({ statusCode: 0, data: { cartItemsCount: 1 } });
    await calls.applyCoupon('TIFFIN20');
    await calls.applyCoupon('BANK10', 'upi_collect');
    await calls.removeCoupon();
    await calls.removeReward();
    await calls.calculateCart({ paymentMethod: 'upi_collect' });
    expect(fetch.mock.calls.map(([url, init]) => [url, JSON.parse(init!.body as string)])).toEqual([
      ['/api/cart/applyCoupon', { couponCode: 'TIFFIN20', _csrf: 't' }],
      ['/api/cart/applyCoupon', { couponCode: 'BANK10', paymentMethod: 'upi_collect', _csrf: 't' }],
      ['/api/cart/removeCoupon', { _csrf: 't' }],
      ['/api/cart/removeReward', { _csrf: 't' }],
      ['/api/cart/calculate', { paymentMethod: 'upi_collect', _csrf: 't' }],
    ]);
  });

  it("rejects a coupon that does not apply with the server's reason", async () => {
    const { calls } = client({ statusCode: 1, statusMessage: 'Invalid coupon code', data: null });
    await expect(calls.applyCoupon('NOPE')).rejects.toMatchObject({ statusCode: 1, message: 'Invalid coupon code' });
  });

  it('signs in with POST auth/verify-otp, the code and the CSRF token in the body', async () => {
    const { calls, fetch } = client({ statusCode: 0, data: { user: { customer_id: '1' }, signedUp: false } });
    await expect(calls.verifyOtp({ mobile: '9876543210', otp: '123456' })).resolves.toEqual({ user: { customer_id: '1' }, signedUp: false });
    expect(fetch.mock.calls[0]![0]).toBe('/api/auth/verify-otp');
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({ mobile: '9876543210', otp: '123456', _csrf: 't' });
  });

  it('asks favourites with lat/lng only when known', async () => {
    const { calls, fetch } = client({ statusCode: 0, data: { restaurants: [] } });
    await calls.favourites();
    await calls.favourites({ lat: 12.9, lng: 77.6 });
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/api/profile/favourites', '/api/profile/favourites?lat=12.9&lng=77.6']);
  });

  it('sends only the optional SMS kinds when saving preferences', async () => {
    const { calls, fetch } = client({ statusCode: 0, data: { preferences: { sms: { orders: true, recommendations: false, reminders: true } } } });
    await calls.updateSmsPreferences({ recommendations: false });
    expect(fetch.mock.calls[0]![0]).toBe('/api/profile/update-notification-preference');
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({ sms: { recommendations: false }, _csrf: 't' });
  });

  it('asks Tiffin Money for the first page without transaction_id and for the next with the last id', async () => {
    const { calls, fetch } = client({ statusCode: 0, data: { balance: 0, transactions: [], hasMoreTxns: false } });
    await calls.money();
    await calls.money('txn_10');
    expect(fetch.mock.calls.map((c) => c[0])).toEqual(['/api/profile/money', '/api/profile/money?transaction_id=txn_10']);
  });

  it('deletes a saved card by its card_reference with the CSRF token', async () => {
    const { calls, fetch } = client({ statusCode: 0, data: { card_reference: 'card_1', deleted: true } });
    await calls.deleteCard('card_1');
    expect(fetch.mock.calls[0]![0]).toBe('/api/profile/delete-card');
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({ card_reference: 'card_1', _csrf: 't' });
  });

  it('asks trackV2 for the order by order_id', async () => {
    const tracking = fixtures.tracking();
    const { calls, fetch } = client({ statusCode: 0, data: tracking });
    await expect(calls.trackOrder('123')).resolves.toEqual(tracking);
    expect(fetch.mock.calls[0]![0]).toBe('/api/order/trackV2?order_id=123');
  });

  it("posts a cancel to the order's own path with where the refund goes and the CSRF token", async () => {
    const { calls, fetch } = client({ statusCode: 0, data: { order: fixtures.orderDetails(), cancellation_fee: 0, refund_amount: 45650, refund_destination: 'TIFFIN_MONEY' } });
    await calls.cancelOrder('123', 'TIFFIN_MONEY');
    expect(fetch.mock.calls[0]![0]).toBe('/api/cancel-only/order/123');
    expect(fetch.mock.calls[0]![1]!.method).toBe('POST');
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({ refund_to: 'TIFFIN_MONEY', _csrf: 't' });
  });

  it("rejects a refused cancel with the edge's words for the customer", async () => {
    const { calls } = client({ statusCode: 1, statusMessage: 'Your order has been picked up and can no longer be cancelled.', data: null });
    await expect(calls.cancelOrder('123', 'SOURCE')).rejects.toMatchObject({ statusCode: 1, message: 'Your order has been picked up and can no longer be cancelled.' });
  });

  it('posts a reorder with the order id and the CSRF token', async () => {
    const result = { item_count: 3, unavailable_items: [], price_changes: [] };
    const { calls, fetch } = client({ statusCode: 0, data: result });
    await expect(calls.reorder('123')).resolves.toEqual(result);
    expect(fetch.mock.calls[0]![0]).toBe('/api/order/reorder');
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({ order_id: '123', _csrf: 't' });
  });
});

describe('payment offers', () => {
  it('asks offers/payment for the point and answers its data', async () => {
    const offers = fixtures.paymentOffers();
    const { calls, fetch } = client({ statusCode: 0, data: offers });
    await expect(calls.paymentOffers({ lat: 12.9352, lng: 77.6245 })).resolves.toEqual(offers);
    expect(fetch.mock.calls[0]![0]).toBe('/api/offers/payment?lat=12.9352&lng=77.6245');
  });

  it("prices the stored cart for a new card's first digits or a saved card, beside the address", async () => {
    const { calls, fetch } = client({ statusCode: 0, data: { cartItemsCount: 1, paymentOffer: null } });
    await calls.calculateCart({ paymentMethod: 'card', cardBin: '438628', address_id: '12' });
    await calls.calculateCart({ paymentMethod: 'card', savedCardReference: 'card_9', address_id: '12' });
    expect(fetch.mock.calls.map(([url, init]) => [url, JSON.parse(init!.body as string)])).toEqual([
      ['/api/cart/calculate', { paymentMethod: 'card', cardBin: '438628', address_id: '12', _csrf: 't' }],
      ['/api/cart/calculate', { paymentMethod: 'card', savedCardReference: 'card_9', address_id: '12', _csrf: 't' }],
    ]);
  });
});

describe('Tiffin One calls', () => {
  it('asks a plan\'s availability with the delivery point, or without one', async () => {
    const { calls, fetch } = client({ statusCode: 0, data: { available: true } });
    await calls.superAvailability('2', { lat: 12.9352, lng: 77.6245 });
    await calls.superAvailability('2', null);
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['/api/super/available/2?lat=12.9352&lng=77.6245', '/api/super/available/2']);
  });

  it('posts notify-me with the point, cancel and the plan line with quantity 1, each with the CSRF token', async () => {
    const { calls, fetch } = client({ statusCode: 0, data: {} });
    await calls.notifySuper('3', { lat: 26.9, lng: 75.8 });
    await calls.cancelSuper();
    await calls.addSubscriptionToCart('2');
    expect(fetch.mock.calls.map(([url, init]) => [url, JSON.parse(init!.body as string)])).toEqual([
      ['/api/super/notify/3', { lat: 26.9, lng: 75.8, _csrf: 't' }],
      ['/api/super/cancel', { _csrf: 't' }],
      ['/api/cart/addSubscriptionToCart', { subscriptionItems: [{ plan_id: '2', quantity: 1 }], _csrf: 't' }],
    ]);
  });

  it("rejects a plan the cart will not take with the cart's status 21 and its words", async () => {
    const { calls } = client({ statusCode: 21, statusMessage: 'SUPER invalid now', data: null });
    await expect(calls.addSubscriptionToCart('1')).rejects.toMatchObject({ statusCode: 21, message: 'SUPER invalid now' });
  });
});

describe('the tracking stream', () => {
  it("opens track-stream for the order and hands over each tracking event's snapshot", () => {
    const { opened } = installFakeEventSource();
    const { calls } = client({});
    const seen: string[] = [];
    calls.trackOrderStream('123', { onTracking: (t) => seen.push(t.order_status) });

    expect(opened.map((s) => s.url)).toEqual(['/api/order/track-stream?order_id=123']);
    opened[0]!.send('tracking', fixtures.tracking({ order_status: 'PICKED_UP' }));
    opened[0]!.send('tracking', 'not json');
    opened[0]!.send('other', fixtures.tracking({ order_status: 'DELIVERED' }));
    expect(seen).toEqual(['PICKED_UP']);
  });

  it('closes for good on an error (no reconnecting) and says so once', () => {
    const { opened } = installFakeEventSource();
    const { calls } = client({});
    const onClose = vi.fn();
    const seen: string[] = [];
    calls.trackOrderStream('123', { onTracking: (t) => seen.push(t.order_status), onClose });

    opened[0]!.fail();
    opened[0]!.fail();
    opened[0]!.send('tracking', fixtures.tracking());
    expect(opened[0]!.closed).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([]);
  });

  it('is closed by the function it returns, without onClose', () => {
    const { opened } = installFakeEventSource();
    const { calls } = client({});
    const onClose = vi.fn();
    const close = calls.trackOrderStream('123', { onTracking: () => {}, onClose });
    close();
    opened[0]!.fail();
    expect(opened[0]!.closed).toBe(true);
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('support calls', () => {
  it('asks the issue, the order help and the conversations at their paths', async () => {
    const { calls, fetch } = client({ statusCode: 0, data: {} });
    await calls.supportIssue('super-faq');
    await calls.orderHelp('123');
    await calls.supportConversations();
    await calls.supportConversation('c/1');
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([
      '/api/support/issues/super-faq',
      '/api/support/order-help/123',
      '/api/support/conversations',
      '/api/support/conversations/c%2F1',
    ]);
  });

  it('posts order help, a message and the desk actions with their bodies and the CSRF token', async () => {
    const { calls, fetch } = client({ statusCode: 0, data: { conversation: fixtures.conversation() } });
    await calls.requestOrderHelp({ orderId: '123', issue: 'MISSING_ITEMS', items: [{ lineId: 1, quantity: 1 }], refundTo: 'SOURCE', idempotencyKey: 'k1' });
    await calls.sendSupportMessage('c1', 'Still cold');
    await calls.deskReply('c1', 'Sorry about that');
    await calls.deskRefund('c1', { amountPaise: 12050, refundTo: 'TIFFIN_MONEY', idempotencyKey: 'k2' });
    await calls.deskClose('c1');
    expect(fetch.mock.calls.map(([url, init]) => [url, JSON.parse(init!.body as string)])).toEqual([
      ['/api/support/order-help', { orderId: '123', issue: 'MISSING_ITEMS', items: [{ lineId: 1, quantity: 1 }], refundTo: 'SOURCE', idempotencyKey: 'k1', _csrf: 't' }],
      ['/api/support/conversations/c1/messages', { text: 'Still cold', _csrf: 't' }],
      ['/api/desk/conversations/c1/reply', { text: 'Sorry about that', _csrf: 't' }],
      ['/api/desk/conversations/c1/refund', { amountPaise: 12050, refundTo: 'TIFFIN_MONEY', idempotencyKey: 'k2', _csrf: 't' }],
      ['/api/desk/conversations/c1/close', { _csrf: 't' }],
    ]);
  });

  it("opens the conversation's events and hands over each conversation event, closing for good on an error", () => {
    const { opened } = installFakeEventSource();
    const { calls } = client({});
    const seen: string[] = [];
    const onClose = vi.fn();
    calls.supportConversationStream('c1', { onConversation: (c) => seen.push(c.status), onClose });

    expect(opened.map((s) => s.url)).toEqual(['/api/support/conversations/c1/events']);
    opened[0]!.send('conversation', fixtures.conversation({ status: 'RESOLVED' }));
    opened[0]!.send('conversation', 'not json');
    opened[0]!.send('tracking', fixtures.conversation({ status: 'CLOSED' }));
    opened[0]!.fail();
    opened[0]!.fail();
    opened[0]!.send('conversation', fixtures.conversation({ status: 'CLOSED' }));
    expect(seen).toEqual(['RESOLVED']);
    expect(opened[0]!.closed).toBe(true);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('says the stream is closed at once where the browser has no EventSource', () => {
    vi.stubGlobal('EventSource', undefined);
    const { calls } = client({});
    const onClose = vi.fn();
    calls.supportConversationStream('c1', { onConversation: () => {}, onClose });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
