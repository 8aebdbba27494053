// Nothing moves while a page loads: landing, listing, menu and cart, opened directly on a phone
// (Lighthouse's 412 × 823 screen) and a laptop, each keep what the visitor already sees in place
// while the rest (the page's microfrontend, its data, its pictures) arrives. The browser reports
// every layout shift not caused by input (PerformanceObserver, `layout-shift`); their sum, which
// is never less than the cumulative layout shift Lighthouse scores, stays at most 0.05. A failure
// names the elements that moved.
import { expect, test } from '@playwright/test';
import { koramangalaCookie } from '../support/customer.mjs';
import { sharedCustomer } from '../support/shared-customer.mjs';

const CLS_GOAL = 0.05;
const SCREENS = [
  { name: 'phone', device: { viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true } },
  { name: 'laptop', device: { viewport: { width: 1366, height: 900 } } },
];

const pages = (customer) => [
  { name: 'landing', path: '/', located: false, ready: (page) => page.getByRole('button', { name: 'FIND FOOD' }) },
  { name: 'listing', path: '/restaurants', ready: (page) => page.getByTestId('restaurant-card').first() },
  { name: 'menu', path: `/menu/${customer.restaurant.id}`, ready: (page) => page.locator(`[data-testid="menu-item"][data-item-id="${customer.dish.id}"]`).first() },
  { name: 'cart', path: '/cart', ready: (page) => page.getByRole('list', { name: 'Items in cart' }) },
];

/** Runs in the page before its own scripts: records every layout shift and what moved. */
function recordLayoutShifts() {
  const describe = (node) => {
    if (!(node instanceof Element)) return node?.nodeName ?? '?';
    const classes = [...node.classList].slice(0, 2).map((c) => `.${c}`).join('');
    return `${node.localName}${node.id ? `#${node.id}` : ''}${classes}`;
  };
  window.__layoutShifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      window.__layoutShifts.push({ value: entry.value, moved: (entry.sources ?? []).map((source) => describe(source.node)) });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

let customer;
test.beforeAll(async ({ browser, baseURL }) => {
  customer = await sharedCustomer(browser, baseURL);
});

for (const screen of SCREENS) {
  for (const name of pages({ restaurant: {}, dish: {} }).map((p) => p.name)) {
    test(`${name} on a ${screen.name} does not shift while it loads`, async ({ browser, baseURL }) => {
      const { path, located, ready } = pages(customer).find((p) => p.name === name);
      const context = await browser.newContext({ baseURL, storageState: customer.storageState, ...screen.device });
      if (located === false) await context.clearCookies({ name: 'userLocation' });
      else await context.addCookies([koramangalaCookie(baseURL)]);
      await context.addInitScript(recordLayoutShifts);
      const page = await context.newPage();

      await page.goto(path);
      await expect(ready(page)).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.waitForFunction(() => [...document.images].filter((image) => image.getBoundingClientRect().top < window.innerHeight).every((image) => image.complete));
      // A frame for the last picture to be laid out and its shift, if any, reported.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));

      const shifts = await page.evaluate(() => window.__layoutShifts);
      const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
      const moved = shifts.map((shift) => `${shift.value.toFixed(4)}: ${shift.moved.join(', ')}`).join('\n');
      expect(total, `layout shift on ${path} on a ${screen.name}:\n${moved}`).toBeLessThanOrEqual(CLS_GOAL);
      await context.close();
    });
  }
}
