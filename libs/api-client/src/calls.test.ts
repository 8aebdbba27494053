import { describe, expect, it, vi } from 'vitest';
import { createEdgeCalls } from './calls';
import { createApiClient } from './client';
import { SessionStore } from './session';

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
});
