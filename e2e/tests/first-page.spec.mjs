// The listing and a menu paint from the data the edge puts into the page: with the browser's own
// first call for that data held back (as on a slow network), the restaurant cards and the menu
// still appear, and the page's microfrontend entry is asked for by the HTML itself.
import { expect, test } from '@playwright/test';
import { koramangalaCookie, restaurantWithPlainDish } from '../support/customer.mjs';

/** Holds every request matching `pattern` unanswered; returns the URLs that were asked. */
async function holdBack(page, pattern) {
  const asked = [];
  await page.route(pattern, (route) => {
    asked.push(route.request().url());
    // Never answered: the page must not need it.
  });
  return asked;
}

test.beforeEach(async ({ context, baseURL }) => {
  await context.addCookies([koramangalaCookie(baseURL)]);
});

test('the listing shows its restaurants while its first /api call is held back', async ({ page }) => {
  const asked = await holdBack(page, '**/api/restaurants/list/**');

  const response = await page.goto('/restaurants');
  const html = await response.text();
  // The listing is drawn from the HTML first: the shell asks for the remote's entry as it starts.
  expect(initialState(html).preloadLater.fetches).toContainEqual(expect.stringMatching(/^\/mfe\/mfe-discovery\/[^/]+\/remoteEntry\.js$/));

  await expect(page.getByTestId('restaurant-card').first()).toBeVisible();
  await expect(page.getByTestId('restaurant-count')).toHaveText(/\d+ restaurants?/);
  const firstPicture = page.getByTestId('restaurant-card').first().locator('img');
  await expect(firstPicture).toHaveAttribute('fetchpriority', 'high');
  expect(asked).toEqual([]);
});

/** The page's initial state, as the edge wrote it. */
function initialState(html) {
  const json = /<script id="tiffin-initial-state" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1];
  return JSON.parse(json ?? '{}');
}

/**
 * What a page names up front: the shell's script, every `<link rel="preload">` (scripts, the
 * remote's entry), and on a page drawn from the HTML first, what its initial state leaves the
 * shell to preload as it starts.
 */
function namedScripts(html, baseURL) {
  const named = [...html.matchAll(/<link rel="preload"[^>]*? href="([^"]+)"/g)].map((m) => m[1]);
  const main = /<script defer src="([^"]+)"/.exec(html)?.[1];
  const later = initialState(html).preloadLater ?? { scripts: [], fetches: [] };
  return new Set([...named, main, ...later.scripts, ...later.fetches].filter(Boolean).map((path) => new URL(path, baseURL).href));
}

// The listing: a menu also loads the remote's own copy of @tiffin/cart-store (a shared module the
// shell does not load at start-up), which preload.json does not list yet.
test("the listing's HTML names every script its first screen runs, so none waits for another to ask", async ({ page, baseURL }) => {
  const scripts = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });

  const response = await page.goto('/restaurants');
  const named = namedScripts(await response.text(), baseURL);
  await expect(page.getByTestId('restaurant-card').first()).toBeVisible();

  // The shell's chunks, the remote's entry, its App and the listing's page chunk are among them.
  expect([...named].some((url) => /\/mfe\/mfe-discovery\/[^/]+\/disc-listing\.[0-9a-f]{8}\.js$/.test(url))).toBe(true);
  expect(scripts.filter((url) => !named.has(url))).toEqual([]);
});

test('a menu shows its dishes while its own /api calls are held back', async ({ page }) => {
  const { restaurant } = await restaurantWithPlainDish(page.request);
  const asked = await holdBack(page, /\/api\/menu\/(pl|quick)\?/);

  await page.goto(restaurant.slug ? `/restaurants/${restaurant.slug}-${restaurant.id}` : `/menu/${restaurant.id}`);

  await expect(page.getByRole('heading', { level: 1, name: restaurant.name })).toBeVisible();
  await expect(page.getByTestId('menu-item').first()).toBeVisible();
  expect(asked).toEqual([]);
});

test('the carried listing is used once: coming back to the listing asks the edge', async ({ page }) => {
  await page.goto('/restaurants');
  const card = page.getByTestId('restaurant-card').first();
  await expect(card).toBeVisible();
  const name = await card.locator('.disc-card__name').textContent();

  const menu = page.waitForResponse((r) => r.url().includes('/api/menu/pl?'));
  await card.locator('a').first().click();
  await menu;
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

  const listed = page.waitForResponse((r) => r.url().includes('/api/restaurants/list/v5?'));
  await page.goBack();
  await listed;
  await expect(page.getByTestId('restaurant-card').first()).toBeVisible();
});
