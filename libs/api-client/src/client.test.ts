import { describe, expect, it, vi } from 'vitest';
import { buildUrl, createApiClient, DEFAULT_RETRIES, DEFAULT_RETRY_DELAY_MS, DEFAULT_TIMEOUT_MS } from './client';
import { ApiError } from './errors';
import { SessionStore } from './session';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const ok = (data: unknown, extra: object = {}) => ({ statusCode: 0, statusMessage: 'done successfully', data, ...extra });

function setup(replies: Array<Response | Error | ((init: RequestInit) => Promise<Response>)>, session = new SessionStore(() => ({ csrfToken: 'initial-token' }))) {
  const calls: Array<{ url: string; init: RequestInit }> = [];
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    const next = replies.shift();
    if (!next) throw new Error('unexpected extra request');
    if (next instanceof Error) throw next;
    if (typeof next === 'function') return next(init);
    return next;
  });
  const sleeps: number[] = [];
  const client = createApiClient({
    fetch: fetch as unknown as typeof globalThis.fetch,
    session,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  return { client, calls, sleeps, session };
}

describe('conventions', () => {
  it('uses the spec constants: 20 s timeout, 2 retries 100 ms apart', () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(20_000);
    expect(DEFAULT_RETRIES).toBe(2);
    expect(DEFAULT_RETRY_DELAY_MS).toBe(100);
  });

  it('sends GET parameters in the query string under /api/, same-origin, asking for JSON', async () => {
    const { client, calls } = setup([json(ok([]))]);

    await client.get('misc/place-autocomplete', { input: 'kora mangala', types: '', missing: undefined });

    expect(calls[0]!.url).toBe('/api/misc/place-autocomplete?input=kora+mangala&types=');
    expect(calls[0]!.init.method).toBe('GET');
    expect(calls[0]!.init.credentials).toBe('same-origin');
    expect(new Headers(calls[0]!.init.headers).get('accept')).toBe('application/json');
    expect(new Headers(calls[0]!.init.headers).get('traceparent')).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
  });

  it('sends POST data as a JSON body with the current CSRF token in _csrf', async () => {
    const { client, calls } = setup([json(ok({}))]);

    await client.post('cart', { restaurantId: '1042', cartItems: [] });

    expect(calls[0]!.init.method).toBe('POST');
    expect(new Headers(calls[0]!.init.headers).get('content-type')).toBe('application/json');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({ restaurantId: '1042', cartItems: [], _csrf: 'initial-token' });
  });

  it('joins array parameters with commas', () => {
    expect(buildUrl('/api', '/x', { ids: ['1', '2'], n: 0, flag: false })).toBe('/api/x?ids=1%2C2&n=0&flag=false');
  });
});

describe('session refresh', () => {
  it('stores sid, tid, deviceId and csrfToken from every JSON reply and uses the new token next', async () => {
    const { client, calls, session } = setup([
      json(ok(null, { sid: 's1', tid: 't1', deviceId: 'd1', csrfToken: 'rotated' })),
      json({ statusCode: 1, statusMessage: 'Invalid CSRF token.', data: null, tid: 't2' }, 403),
      json(ok({})),
    ]);

    await client.get('misc/cities');
    await expect(client.post('cart', {})).rejects.toBeInstanceOf(ApiError);
    await client.post('cart', {});

    expect(session.get()).toEqual({ sid: 's1', tid: 't2', deviceId: 'd1', csrfToken: 'rotated' });
    expect(JSON.parse(calls[2]!.init.body as string)._csrf).toBe('rotated');
  });
});

describe('errors', () => {
  it('throws a non-OK HTTP reply with the reply and response attached', async () => {
    const reply = { statusCode: 404, statusMessage: 'Restaurant not found', data: null };
    const { client } = setup([json(reply, 404)]);

    const error = await client.get('menu/pl', { restaurantId: 'x' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', httpStatus: 404, statusCode: 404, message: 'Restaurant not found', reply });
    expect((error as ApiError).response).toBeInstanceOf(Response);
  });

  it('getData rejects with the status message when the code is not a success', async () => {
    const { client } = setup([json({ statusCode: 5, statusMessage: 'Your location is currently unserviceable', data: null })]);

    await expect(client.getData('restaurants/list/v5')).rejects.toMatchObject({
      kind: 'status',
      statusCode: 5,
      message: 'Your location is currently unserviceable',
    });
  });

  it('the cart family also accepts 8 and 9 as success', async () => {
    const cart = { cartItemsCount: 1 };
    const { client } = setup([json({ statusCode: 8, statusMessage: 'Item(s) unavailable', data: cart }), json({ statusCode: 8, data: cart })]);

    await expect(client.getData('cart', undefined, { family: 'cart' })).resolves.toEqual(cart);
    await expect(client.getData('cart')).rejects.toMatchObject({ statusCode: 8 });
  });

  it('rejects a reply that is not JSON', async () => {
    const { client } = setup([new Response('<html>', { status: 200 })]);
    await expect(client.get('misc/cities')).rejects.toMatchObject({ kind: 'parse' });
  });
});

describe('retries', () => {
  it('retries network failures twice, 100 ms apart, then succeeds', async () => {
    const { client, calls, sleeps } = setup([new TypeError('Failed to fetch'), new TypeError('Load failed'), json(ok('third time'))]);

    await expect(client.getData('misc/cities')).resolves.toBe('third time');

    expect(calls).toHaveLength(3);
    expect(sleeps).toEqual([100, 100]);
  });

  it('gives up after 2 retries with a network error', async () => {
    const { client, calls } = setup([
      new TypeError('Failed to fetch'),
      new TypeError('The network connection was lost.'),
      new TypeError('NetworkError when attempting to fetch resource.'),
    ]);

    await expect(client.get('misc/cities')).rejects.toMatchObject({ kind: 'network' });
    expect(calls).toHaveLength(3);
  });

  it('does not retry HTTP errors or unrelated exceptions', async () => {
    const first = setup([json({ statusCode: 777, statusMessage: "Something's broken", data: null }, 503)]);
    await expect(first.client.get('x')).rejects.toMatchObject({ kind: 'http', httpStatus: 503 });
    expect(first.calls).toHaveLength(1);

    const second = setup([new TypeError('x is not a function')]);
    await expect(second.client.get('x')).rejects.toMatchObject({ kind: 'network' });
    expect(second.calls).toHaveLength(1);
  });

  it('times out an attempt and retries it as an abort', async () => {
    const hang = (init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason));
      });
    const calls: RequestInit[] = [];
    const fetch = vi.fn(async (_url: string, init: RequestInit) => {
      calls.push(init);
      return calls.length < 3 ? hang(init) : json(ok('late but fine'));
    });
    const client = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch, timeoutMs: 10, sleep: async () => {}, session: new SessionStore(() => ({})) });

    await expect(client.getData('misc/cities')).resolves.toBe('late but fine');
    expect(calls).toHaveLength(3);
  });

  it('does not retry when the caller aborts', async () => {
    const controller = new AbortController();
    const { client, calls } = setup([
      (init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal!.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
          controller.abort();
        }),
    ]);

    await expect(client.get('misc/cities', undefined, { signal: controller.signal })).rejects.toMatchObject({ kind: 'network' });
    expect(calls).toHaveLength(1);
  });

  it('retries a reply the caller flags as retryable', async () => {
    const { client, calls } = setup([json({ statusCode: 777, data: null }), json(ok('fresh'))]);

    const reply = await client.get('misc/launch', undefined, { retryIf: (r) => r.statusCode === 777 });

    expect(reply.data).toBe('fresh');
    expect(calls).toHaveLength(2);
  });
});
