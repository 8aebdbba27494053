// Phone first: every main page at 360 and 412 px (phones) and 1366 px (a laptop) fits the screen
// (nothing scrolls sideways), and the header's logo, title, location bar and links never overlap
// or leave the screen (header.css folds the secondary links behind a menu button under 961 px and
// shrinks the rest under 481 px). On phones every header control is a usable tap target.
//
// Pages are opened directly, each in a fresh context signed in as one shared customer with a cart.
import { expect, test } from '@playwright/test';
import { KORAMANGALA } from '../support/customer.mjs';
import { sharedCustomer } from '../support/shared-customer.mjs';

const WIDTHS = [360, 412, 1366];
/** Apple's and Google's guidance for a finger: 44 px (Material says 48 dp; 44 is the floor). */
const TAP = 44;

/** The main pages; `located` says whether the visitor has a delivery location (the landing page is the home without one). */
const pages = (customer) => [
  { name: 'landing', path: '/', located: false, ready: (page) => page.getByRole('button', { name: 'FIND FOOD' }) },
  { name: 'listing', path: '/restaurants', ready: (page) => page.getByTestId('restaurant-card').first() },
  { name: 'menu', path: `/menu/${customer.restaurant.id}`, ready: (page) => page.locator(`[data-testid="menu-item"][data-item-id="${customer.dish.id}"]`).first() },
  { name: 'cart', path: '/cart', ready: (page) => page.getByRole('list', { name: 'Items in cart' }) },
  { name: 'checkout', path: '/checkout', ready: (page) => page.getByRole('complementary', { name: 'Your order' }).getByText(customer.dish.name) },
  { name: 'account', path: '/my-account', ready: (page) => page.getByRole('heading', { name: 'Orders', exact: true }) },
  { name: 'search', path: '/search', ready: (page) => page.getByTestId('search-input') },
  { name: 'not found', path: '/no/such/page', ready: (page) => page.getByRole('heading', { level: 1, name: 'Page not found' }) },
];

/** What the page measures of itself: its widths and the header's boxes that are drawn. */
function measure() {
  const drawn = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 ? { left: box.left, right: box.right, top: box.top, bottom: box.bottom, width: box.width, height: box.height } : null;
  };
  const header = document.querySelector('header.shell-header');
  const boxes = [];
  if (header) {
    const named = [
      ['logo', header.querySelector('.shell-logo')],
      ['title', header.querySelector('.shell-header__title')],
      ['location', header.querySelector('.shell-location-bar')],
      // Every control of the navigation: links, the menu button, the user entry, the cart.
      ...[...header.querySelectorAll('nav a, nav button')].map((element) => [`link "${element.getAttribute('aria-label') || element.textContent.trim()}"`, element]),
    ];
    for (const [name, element] of named) {
      const box = element && !element.closest('[role="menu"]') ? drawn(element) : null;
      if (box) boxes.push({ name, ...box });
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, header: Boolean(header), boxes };
}

const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

test.use({ reducedMotion: 'reduce' });

for (const width of WIDTHS) {
  test(`every main page fits ${width} px with a header whose parts do not overlap`, async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const customer = await sharedCustomer(browser, baseURL);
    for (const target of pages(customer)) {
      await test.step(`${target.name} (${target.path}) at ${width} px`, async () => {
        const context = await browser.newContext({ baseURL, storageState: customer.storageState, viewport: { width, height: 800 }, reducedMotion: 'reduce' });
        if (target.located === false) await context.clearCookies({ name: 'userLocation' });
        else await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);
        const page = await context.newPage();
        await page.goto(target.path);
        await expect(target.ready(page)).toBeVisible();
        // Images and late remotes change widths: let the page settle before measuring.
        await page.waitForLoadState('networkidle');
        const seen = await page.evaluate(measure);

        expect(seen.innerWidth).toBe(width);
        expect(seen.scrollWidth, `${target.path} scrolls sideways at ${width} px`).toBeLessThanOrEqual(seen.innerWidth);
        if (target.name !== 'landing') expect(seen.header, 'the shell header is shown').toBe(true);
        for (const box of seen.boxes) {
          expect(box.left, `${box.name} starts on screen`).toBeGreaterThanOrEqual(0);
          expect(box.right, `${box.name} ends on screen`).toBeLessThanOrEqual(width);
        }
        for (let i = 0; i < seen.boxes.length; i += 1) {
          for (let j = i + 1; j < seen.boxes.length; j += 1) {
            const [a, b] = [seen.boxes[i], seen.boxes[j]];
            expect(overlap(a, b), `${a.name} and ${b.name} overlap at ${width} px on ${target.path}`).toBe(false);
          }
        }
        if (width < 481) {
          for (const box of seen.boxes.filter((b) => b.name.startsWith('link') || b.name === 'location')) {
            expect(Math.round(box.height), `${box.name} is tall enough to tap`).toBeGreaterThanOrEqual(TAP);
            expect(Math.round(box.width), `${box.name} is wide enough to tap`).toBeGreaterThanOrEqual(TAP);
          }
        }
        if (seen.boxes.some((b) => b.name === 'location')) {
          const location = seen.boxes.find((b) => b.name === 'location');
          expect(location.width, 'the location bar keeps room for its title').toBeGreaterThanOrEqual(width < 481 ? 96 : 160);
        }
        await context.close();
      });
    }
  });
}

test('under 961 px the secondary links open from the menu button, on screen and tappable', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 800 }, reducedMotion: 'reduce' });
  await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);
  const page = await context.newPage();
  await page.goto('/restaurants');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Offers' })).toBeHidden();

  await nav.getByRole('button', { name: 'More links' }).click();
  for (const name of ['Tiffin Corporate', 'Search', 'Offers', 'Help']) {
    const link = nav.getByRole('link', { name });
    await expect(link).toBeVisible();
    const box = await link.boundingBox();
    expect(box.x, `${name} starts on screen`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${name} ends on screen`).toBeLessThanOrEqual(360);
    expect(Math.round(box.height), `${name} is tall enough to tap`).toBeGreaterThanOrEqual(TAP);
  }
  await nav.getByRole('link', { name: 'Offers' }).click();
  await expect(page).toHaveURL(/\/offers(\/|$)/);
  await expect(nav.getByRole('link', { name: 'Help' })).toBeHidden();
  await context.close();
});
