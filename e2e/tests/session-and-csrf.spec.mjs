// docs/edge-api.md "Session, device and CSRF": the first page sets the HttpOnly session cookie and
// carries the initial state; a POST without the session's CSRF token is refused.
import { expect, test } from '@playwright/test';

const INITIAL_STATE = /<script id="tiffin-initial-state" type="application\/json">(.*?)<\/script>/s;

test('the first page sets the HttpOnly tfn_sid cookie and embeds the initial state', async ({ page, context }) => {
  expect(await context.cookies()).toEqual([]);
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);

  const cookies = await context.cookies();
  const sid = cookies.find((c) => c.name === 'tfn_sid');
  expect(sid, 'tfn_sid cookie').toBeDefined();
  expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  expect(sid.value).not.toBe('');
  expect(cookies.find((c) => c.name === 'tfn_did')).toMatchObject({ httpOnly: true });
  // HttpOnly: page scripts cannot read it.
  expect(await page.evaluate(() => document.cookie)).not.toContain('tfn_sid');

  const state = JSON.parse(await page.locator('script#tiffin-initial-state[type="application/json"]').textContent());
  expect(state).toEqual({
    sid: expect.stringMatching(/.+/),
    tid: expect.stringMatching(/.+/),
    deviceId: expect.stringMatching(/.+/),
    csrfToken: expect.stringMatching(/.+/),
    // A guest: nobody is signed in on this fresh browser context.
    user: null,
    // The header's badge: a new visitor's cart is empty.
    cartCount: 0,
    // What anyone may fetch: the live microfrontend manifest and the route that answered this path.
    manifest: expect.any(Object),
    route: { path: '/', id: 'home' },
    // The landing page is drawn from the HTML first: the scripts the shell asks for once it is.
    preloadLater: {
      scripts: expect.arrayContaining([expect.stringMatching(/^\/shell\/[^/]+\.js$/)]),
      fetches: expect.arrayContaining([expect.stringMatching(/^\/mfe\/mfe-discovery\/[^/]+\/remoteEntry\.js$/)]),
    },
  });
  expect(state.deviceId).toBe(cookies.find((c) => c.name === 'tfn_did').value);
  // The manifest is the public one, word for word, and names where each microfrontend is served.
  const published = await (await page.request.get('/mfe-manifest.json')).json();
  expect(state.manifest).toEqual(published);
  expect(Object.keys(state.manifest).sort()).toEqual(['mfe-account', 'mfe-cart', 'mfe-checkout', 'mfe-desk', 'mfe-discovery']);
});

test('POST /api/cart without the CSRF token is 403 "Invalid CSRF token."; with it, accepted', async ({ request }) => {
  const home = await request.get('/');
  expect(home.status()).toBe(200);
  const sessionCookie = home.headersArray().find((h) => h.name.toLowerCase() === 'set-cookie' && h.value.startsWith('tfn_sid='));
  expect(sessionCookie?.value).toMatch(/;\s*HttpOnly/i);
  const { csrfToken } = JSON.parse(INITIAL_STATE.exec(await home.text())[1]);
  expect(csrfToken).toBeTruthy();

  const emptyCart = { cartItems: [] };
  for (const attempt of [{ data: emptyCart }, { data: { ...emptyCart, _csrf: `${csrfToken}x` } }]) {
    const refused = await request.post('/api/cart', attempt);
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ statusCode: 1, statusMessage: 'Invalid CSRF token.', data: null });
  }

  // The same call with the session's token goes through, so the 403 above was the token's doing.
  const accepted = await request.post('/api/cart', { data: { ...emptyCart, _csrf: csrfToken } });
  expect(accepted.status()).toBe(200);
  expect(await accepted.json()).toMatchObject({ statusCode: 0 });
});
