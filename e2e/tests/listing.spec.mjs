// The listing against the real storefront: sort it and filter it (the page refines
// through POST restaurants/list/update), scroll to the second page, and open a city page and one
// of its area pages (real content, the edge's <title> and meta description).
//
// The browser tests' catalogue has 12 restaurants a city, fewer than one page of 15. To prove the
// infinite scroll against the real server, the first reply is trimmed in the browser to 5
// restaurants with `nextOffset: 5`; the second page is then the server's own answer to offset 5.
// That test takes the first page the edge carries in the HTML out of it, so the page asks.
import { expect, test } from '@playwright/test';

const KORAMANGALA = { lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bengaluru, Karnataka, India', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

/** '₹400 FOR TWO' → 40000 paise. */
function costOf(text) {
  const match = /₹\s*([\d,]+)\s*FOR TWO/.exec(text);
  return match ? Number(match[1].replaceAll(',', '')) * 100 : null;
}

async function openCards(page) {
  return page.locator('[data-testid="restaurant-card"][data-open="true"]');
}

test.beforeEach(async ({ context, baseURL }) => {
  await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);
});

test('listing: sort by cost and filter by a cuisine through list/update', async ({ page }) => {
  await page.goto('/restaurants');
  await expect(page.getByTestId('restaurant-card').first()).toBeVisible();
  const total = Number((await page.getByTestId('restaurant-count').textContent()).split(' ')[0]);
  expect(total).toBeGreaterThan(1);

  // Sort: cost, low to high. The page asks the server and shows its order.
  const sorted = page.waitForResponse((r) => r.url().endsWith('/api/restaurants/list/update') && r.request().method() === 'POST');
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption('COST_LOW_TO_HIGH');
  const sortedBody = await (await sorted).json();
  expect(sortedBody.data.sortBy).toBe('COST_LOW_TO_HIGH');
  await expect(page.getByTestId('restaurant-count')).toHaveText(`${total} restaurants`);
  const costs = (await (await openCards(page)).allTextContents()).map(costOf);
  expect(costs.length).toBeGreaterThan(0);
  expect(costs).toEqual([...costs].sort((a, b) => a - b));

  // Filter: the first cuisine offered; every card then serves it, and there are fewer of them.
  await page.locator('.disc-toolbar__cuisines summary').click();
  const option = page.locator('.disc-toolbar__cuisine').first();
  const cuisine = (await option.textContent()).replace(/\s*\(\d+\)\s*$/, '').trim();
  const count = Number(/\((\d+)\)/.exec(await option.textContent())[1]);
  const filtered = page.waitForResponse((r) => r.url().endsWith('/api/restaurants/list/update'));
  await option.locator('input').check();
  const filteredBody = await (await filtered).json();
  expect(filteredBody.data.filters.cuisines).toEqual([cuisine]);
  await expect(page.getByTestId('restaurant-count')).toHaveText(`${count} ${count === 1 ? 'restaurant' : 'restaurants'}`);
  for (const text of await page.locator('.disc-card__cuisines').allTextContents()) {
    expect(text.split(', ')).toContain(cuisine);
  }

  // Clearing the filter brings every restaurant back, still sorted.
  await page.getByRole('button', { name: /Clear filters/ }).click();
  await expect(page.getByTestId('restaurant-count')).toHaveText(`${total} restaurants`);
});

/**
 * Serves `path` without the listing the edge carries in the page, so the page asks for its first
 * page itself (as it does when the edge could not get it in time).
 */
async function withoutCarriedListing(page, path) {
  await page.route(`**${path}`, async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue();
    const response = await route.fetch();
    const html = await response.text();
    const opening = '<script id="tiffin-initial-state" type="application/json">';
    const start = html.indexOf(opening) + opening.length;
    const end = html.indexOf('</script>', start);
    const state = JSON.parse(html.slice(start, end));
    delete state.firstReply;
    const json = JSON.stringify(state).replaceAll('<', '\\u003c');
    await route.fulfill({ response, body: html.slice(0, start) + json + html.slice(end) });
  });
}

test('listing: scrolling to the end loads the second page from the server', async ({ page }) => {
  await withoutCarriedListing(page, '/restaurants');
  await page.route('**/api/restaurants/list/v5?*', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    const all = [...body.data.cards, ...body.data.closedCards];
    expect(all.length).toBeGreaterThan(5);
    const open = body.data.cards.slice(0, 5);
    body.data.cards = open;
    body.data.closedCards = body.data.closedCards.slice(0, 5 - open.length);
    body.data.pageOffset.nextOffset = 5;
    await route.fulfill({ response, json: body });
  });
  const secondPage = page.waitForRequest((r) => r.url().endsWith('/api/restaurants/list/update') && JSON.parse(r.postData()).offset === 5);

  await page.goto('/restaurants');
  await expect(page.getByTestId('restaurant-card').first()).toBeVisible();
  const total = Number((await page.getByTestId('restaurant-count').textContent()).split(' ')[0]);
  // Scroll to the end (on a tall window the sentinel may already be near enough to fire).
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));

  await secondPage;
  await expect(page.getByTestId('restaurant-card')).toHaveCount(total);
  await expect(page.getByTestId('listing-sentinel')).toHaveCount(0);
  const ids = await page.getByTestId('restaurant-card').evaluateAll((cards) => cards.map((c) => c.dataset.restaurantId));
  expect(new Set(ids).size).toBe(total);
});

test('city page: real restaurants, its own title and description, and an area page', async ({ page }) => {
  const response = await page.goto('/city/bangalore');
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain('<title>Food delivery in Bangalore | Order food online | Tiffin</title>');
  expect(html).toContain('<meta name="description" content="Order food online from the best restaurants in Bangalore');

  await expect(page.getByRole('heading', { level: 1, name: 'Food delivery in Bangalore' })).toBeVisible();
  await expect(page.getByTestId('restaurant-card').first()).toBeVisible();
  await expect(page).toHaveTitle(/Food delivery in Bangalore/);

  const areas = page.getByRole('navigation', { name: 'Areas in Bangalore' });
  const area = areas.getByRole('link').first();
  const areaName = (await area.textContent()).replace(/\s*\(\d+\)\s*$/, '').trim();
  await area.click();
  await expect(page.getByRole('heading', { level: 1, name: `Restaurants in ${areaName}, Bangalore` })).toBeVisible();
  await expect(page.getByTestId('restaurant-card').first()).toBeVisible();
});
