// The catch-all route: a path outside the route table is answered 404 by the edge with the
// shell's HTML, which renders the not-found page; a known city page and the shell's own legal
// pages are real routes (200).
import { expect, test } from '@playwright/test';

const NOT_FOUND_TEXT = "Uh-oh! Looks like the page you are trying to access, doesn't exist. Please start afresh.";

test('an unknown path is a 404 with the not-found page, and GO HOME goes to /', async ({ page }) => {
  const response = await page.goto('/this/does/not/exist');
  expect(response?.status()).toBe(404);

  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveTitle(/^Page not found\b/);
  await expect(page.getByText(NOT_FOUND_TEXT, { exact: true })).toBeVisible();
  // The page chrome is still there around it.
  await expect(page.getByRole('link', { name: 'Tiffin home' })).toBeVisible();
  await expect(page.locator('footer')).toBeVisible();

  await page.getByRole('button', { name: 'GO HOME' }).click();
  await expect(page).toHaveURL(/^http:\/\/[^/]+\/$/);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
  await expect(page.locator('main[data-route-id="home"] [data-mfe="mfe-discovery"]')).toBeVisible();
});

test('a single-segment path that is not a city is a 404 too, shown without loading any microfrontend', async ({ page }) => {
  const remotes = [];
  page.on('request', (request) => {
    if (request.url().includes('/mfe/')) remotes.push(request.url());
  });
  const response = await page.goto('/atlantis');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  // Everything the page starts by itself has started once the network is quiet.
  await page.waitForLoadState('networkidle');
  expect(remotes, 'the not-found page fetched a remote').toEqual([]);
});

test('a city page (/bangalore) is a real route: 200 and no not-found page', async ({ page }) => {
  const response = await page.goto('/bangalore');
  expect(response?.status()).toBe(200);
  await expect(page.locator('main[data-route-id="city"] [data-mfe="mfe-discovery"]')).toBeVisible();
  await expect(page).toHaveTitle(/Bangalore/);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
});

test('a legal page (/privacy-policy) is a real route: its heading, the cookies named, help at /support, fits 360 px', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  const response = await page.goto('/privacy-policy');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page).toHaveTitle('Privacy Policy | Tiffin');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
  const article = page.getByRole('article');
  await expect(article.getByRole('link', { name: 'Help & Support' }).first()).toHaveAttribute('href', '/support');

  // Its link to the cookie policy stays in the storefront, and that page names the cookies.
  await article.getByRole('link', { name: 'Cookie Policy' }).click();
  await expect(page).toHaveURL(/\/cookie-policy$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Cookie Policy' })).toBeVisible();
  for (const cookie of ['__Host-tfn_sid', 'tfn_did', 'userLocation']) {
    await expect(page.getByRole('article')).toContainText(cookie);
  }
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll, 'the page scrolls sideways at 360 px').toBeLessThanOrEqual(widths.inner);
});
