// Screenshot tests: what the main pages look like at 412 px (a phone) and 1366 px (a laptop),
// against committed baselines in screens.spec.mjs-snapshots/, with a small tolerance
// (maxDiffPixelRatio 0.02) for antialiasing.
//
// Deterministic by construction: the e2e storefront generates the same catalogue every run
// (CATALOG_SEED's default, 42, with 12 restaurants per city); each page opens in a fresh context
// signed in as one shared customer with the same cart; the browser's clock is fixed (the footer's
// year, the landing's meal of the day); CSS animations and transitions are stopped and the caret
// hidden; and whatever still changes between runs is masked: the landing headline (it rotates on
// a timer), the landing picture (one of the meal's images at random) and the customer's mobile
// number (a new one per run).
//
// After an intended visual change, look at the diffs in test-results/, then rewrite the
// baselines with:
//   TIFFIN_BIN_DIR=… npx playwright test -c e2e/playwright.config.mjs e2e/tests/screens.spec.mjs --update-snapshots
// and commit the changed PNGs with the change.
import { expect, test } from '@playwright/test';
import { KORAMANGALA, data } from '../support/customer.mjs';
import { sharedCustomer } from '../support/shared-customer.mjs';

const WIDTHS = [412, 1366];
/** Lunch time in Bengaluru on a fixed day. */
const FIXED_TIME = new Date('2026-01-05T07:30:00Z');

/** A customisable, in-stock dish on the customer's restaurant's menu, for the customisation dialog. */
async function customisableDish(request, restaurantId) {
  const menu = (await data(await request.get(`/api/menu/pl?restaurantId=${restaurantId}&lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}`))).data.menu;
  const dish = Object.values(menu.items).find((item) => item.inStock === 1 && item.customisable);
  expect(dish, 'a customisable dish on the menu').toBeTruthy();
  return dish;
}

const screens = (customer) => [
  {
    name: 'landing',
    path: '/',
    located: false,
    ready: (page) => page.getByRole('button', { name: 'FIND FOOD' }),
    mask: (page) => [page.getByTestId('landing-headline'), page.locator('.disc-landing__picture')],
  },
  { name: 'listing', path: '/restaurants', ready: (page) => page.getByTestId('restaurant-card').first() },
  { name: 'menu', path: `/menu/${customer.restaurant.id}`, ready: (page) => page.locator(`[data-testid="menu-item"][data-item-id="${customer.dish.id}"]`).first() },
  {
    name: 'customisation',
    path: `/menu/${customer.restaurant.id}`,
    ready: (page) => page.locator(`[data-testid="menu-item"][data-item-id="${customer.customisable.id}"]`).first(),
    act: async (page) => {
      await page.locator(`[data-testid="menu-item"][data-item-id="${customer.customisable.id}"]`).first().getByTestId('add-button').click();
      await expect(page.getByTestId('customisation-dialog')).toBeVisible();
    },
  },
  { name: 'cart', path: '/cart', ready: (page) => page.getByRole('list', { name: 'Items in cart' }) },
  { name: 'search', path: '/search', ready: (page) => page.getByTestId('popular-cuisines').getByRole('button').first() },
  {
    name: 'account',
    path: '/my-account',
    ready: (page) => page.getByRole('heading', { name: 'Orders', exact: true }),
    mask: (page) => [page.locator('.acct-profile-bar__contact')],
  },
  { name: 'not-found', path: '/no/such/page', ready: (page) => page.getByRole('heading', { level: 1, name: 'Page not found' }) },
];

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    let customer;
    test.beforeAll(async ({ browser, baseURL }) => {
      const shared = await sharedCustomer(browser, baseURL);
      const context = await browser.newContext({ baseURL, storageState: shared.storageState });
      customer = { ...shared, customisable: await customisableDish(context.request, shared.restaurant.id) };
      await context.close();
    });

    for (const name of screens({ restaurant: {}, dish: {}, customisable: {} }).map((s) => s.name)) {
      test(`${name} at ${width} px looks as it did`, async ({ browser, baseURL }) => {
        const screen = screens(customer).find((s) => s.name === name);
        const context = await browser.newContext({ baseURL, storageState: customer.storageState, viewport: { width, height: 900 }, reducedMotion: 'reduce' });
        if (screen.located === false) await context.clearCookies({ name: 'userLocation' });
        else await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);
        const page = await context.newPage();
        await page.clock.setFixedTime(FIXED_TIME);

        await page.goto(screen.path);
        await expect(screen.ready(page)).toBeVisible();
        await page.waitForLoadState('networkidle');
        // Every image on screen drawn, so a late one does not make the picture.
        await page.waitForFunction(() => [...document.images].filter((image) => image.getBoundingClientRect().top < window.innerHeight).every((image) => image.complete));
        if (screen.act) await screen.act(page);

        await expect(page).toHaveScreenshot(`${name}-${width}.png`, {
          maxDiffPixelRatio: 0.02,
          animations: 'disabled',
          caret: 'hide',
          mask: screen.mask ? screen.mask(page) : [],
        });
        await context.close();
      });
    }
  });
}
