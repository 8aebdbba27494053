// The rest of the route table: the written pages the shell draws itself (the app page, the partners'
// web view entry, Tiffin Moments, order for others, the New Year's Eve quiz). Each is a route, so
// the edge answers 200; each shows its own heading and fits a phone and a laptop without sideways
// scrolling. A story of Tiffin Moments that does not exist is the not-found page, answered 404.
import { expect, test } from '@playwright/test';

const PAGES = [
  { path: '/app', heading: 'Get the Tiffin app', headerTitle: 'App' },
  { path: '/webview', heading: 'Order food on Tiffin', headerTitle: 'Order food' },
  { path: '/moments', heading: 'Tiffin Moments' },
  { path: '/moments/hyderabad-biryani-after-midnight', heading: 'Biryani after midnight' },
  { path: '/ofo/how-it-works', heading: 'Order for others' },
  { path: '/ofo/gifting', heading: 'Order for others' },
  { path: '/ofo/no-such-tab', heading: 'Order for others' },
  { path: '/nyequiz', heading: 'New Year’s Eve food quiz' },
];

const WIDTHS = [390, 1366];

/** Fails when the document is wider than the window: the page would scroll sideways. */
async function expectNoSidewaysScroll(page, what) {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll, `${what} scrolls sideways`).toBeLessThanOrEqual(widths.inner);
}

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    for (const { path, heading, headerTitle } of PAGES) {
      test(`${path} is a page: 200, its heading, no sideways scroll`, async ({ page }) => {
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        await expect(page.getByRole('heading', { level: 1, name: heading, exact: true })).toBeVisible();
        await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
        if (headerTitle) await expect(page.locator('.shell-header__title')).toHaveText(headerTitle);
        await expect(page.locator('main')).not.toContainText(/coming soon/i);
        await expectNoSidewaysScroll(page, `${path} at ${width} px`);
      });
    }

    test('an unknown Tiffin Moments story is the not-found page, 404', async ({ page }) => {
      const response = await page.goto('/moments/no-such-story');
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
      await expectNoSidewaysScroll(page, `/moments/no-such-story at ${width} px`);
    });
  });
}

test('an unknown order-for-others tab shows the first tab, and the tabs move between each other', async ({ page }) => {
  await page.goto('/ofo/no-such-tab');
  const tabs = page.getByRole('navigation', { name: 'Order for others' });
  await expect(tabs.getByRole('link', { name: 'How it works' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 2, name: 'Deliver to their address' })).toBeVisible();

  await tabs.getByRole('link', { name: 'FAQ' }).click();
  await expect(page).toHaveURL(/\/ofo\/faq$/);
  await expect(tabs.getByRole('link', { name: 'FAQ' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { level: 2, name: 'Can I cancel it?' })).toBeVisible();
});

test('the moments index opens a story, and the quiz scores in the browser', async ({ page }) => {
  await page.goto('/moments');
  await page.getByRole('link', { name: 'Vada pav weather' }).click();
  await expect(page).toHaveURL(/\/moments\/mumbai-vada-pav-in-the-rain$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Vada pav weather' })).toBeVisible();
  await expect(page).toHaveTitle('Vada pav weather - Tiffin Moments | Tiffin');

  await page.goto('/nyequiz');
  await page.waitForLoadState('networkidle');
  // From here on, answering and scoring ask nothing of the edge.
  const requests = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) requests.push(request.url());
  });
  const submit = page.getByRole('button', { name: 'See my score' });
  await expect(submit).toBeDisabled();
  const groups = page.locator('form.shell-quiz').getByRole('group');
  const count = await groups.count();
  expect(count).toBeGreaterThanOrEqual(5);
  for (let i = 0; i < count; i += 1) await groups.nth(i).getByRole('radio').first().check();
  await submit.click();
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^You scored \\d of ${count}`) })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Order for the countdown' })).toHaveAttribute('href', '/restaurants');
  await page.getByRole('button', { name: 'Play again' }).click();
  await expect(submit).toBeDisabled();
  expect(requests).toEqual([]);
});
