// The first screen arrives with the HTML: the edge writes a picture of it (the route's
// microfrontend's template, from the page's own first reply) that a phone shows while the
// scripts are still on their way, and the real page takes its place without moving anything.
// Each page is opened twice: once with every script refused (what shows before the scripts
// run), once as usual; the picture and the page must name the same things in the same boxes.
import { expect, test } from '@playwright/test';
import { data, KORAMANGALA, koramangalaCookie, refill, restaurantWithPlainDish } from '../support/customer.mjs';
import { sharedCustomer } from '../support/shared-customer.mjs';

const FIRST_PAINT = '#tiffin-first-paint';
const WIDTHS = [412, 1366];

/** A page of its own browser context at `width`, located in Koramangala unless `located` is false. */
async function openPage(browser, baseURL, width, { located = true, scripts = true } = {}) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  if (located) await context.addCookies([koramangalaCookie(baseURL)]);
  const page = await context.newPage();
  if (!scripts) await page.route(/\.js(\?|$)/, (route) => route.abort());
  return page;
}

/** A loaded picture's box, rounded to whole pixels. */
async function pictureBox(picture) {
  await expect.poll(() => picture.evaluate((img) => img.complete && img.naturalWidth > 0)).toBe(true);
  const box = await picture.boundingBox();
  return box && { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) };
}

/** Text with its whitespace runs made one space. */
async function text(locator) {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

/** A page of its own browser context at `width`, signed in as `customer` and located in Koramangala. */
async function customerPage(browser, baseURL, width, customer, { scripts = true } = {}) {
  const context = await browser.newContext({ baseURL, storageState: customer.storageState, viewport: { width, height: 900 } });
  await context.addCookies([koramangalaCookie(baseURL)]);
  const page = await context.newPage();
  if (!scripts) await page.route(/\.js(\?|$)/, (route) => route.abort());
  return page;
}

/** An element's text and its box, rounded to whole pixels. */
async function textAndBox(locator) {
  const box = await locator.boundingBox();
  return { text: await text(locator), box: box && { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) } };
}

for (const width of WIDTHS) {
  test(`at ${width} px the listing's first restaurants are in the HTML, where the page then draws them`, async ({ browser, baseURL }) => {
    const before = await openPage(browser, baseURL, width, { scripts: false });
    const html = await (await before.goto('/restaurants')).text();
    // The pictures have the connection to themselves: the HTML preloads no script, the shell's
    // script asks for the rest as it starts.
    expect(html).not.toMatch(/<link[^>]* rel="preload"/);
    const painted = before.locator(`${FIRST_PAINT} .disc-card`).first();
    await expect(painted).toBeVisible();
    const name = await text(painted.locator('.disc-card__name'));
    expect(name).not.toBe('');
    const picture = painted.locator('img').first();
    const src = await picture.getAttribute('src');
    const box = await pictureBox(picture);

    const page = await openPage(browser, baseURL, width);
    await page.goto('/restaurants');
    const card = page.getByTestId('restaurant-card').first();
    await expect(card).toBeVisible();
    expect(await page.locator(FIRST_PAINT).count(), 'the first paint goes as the page is drawn').toBe(0);
    expect(await text(card.locator('.disc-card__name'))).toBe(name);
    expect(await card.locator('img').first().getAttribute('src')).toBe(src);
    expect(await pictureBox(card.locator('img').first())).toEqual(box);
  });

  test(`at ${width} px a menu's restaurant and first dishes are in the HTML, where the page then draws them`, async ({ browser, baseURL }) => {
    const probe = await openPage(browser, baseURL, width);
    const { restaurant } = await restaurantWithPlainDish(probe.request);
    const path = restaurant.slug ? `/restaurants/${restaurant.slug}-${restaurant.id}` : `/menu/${restaurant.id}`;

    const before = await openPage(browser, baseURL, width, { scripts: false });
    await before.goto(path);
    const paint = before.locator(FIRST_PAINT);
    await expect(paint).toBeVisible();
    await expect(paint.locator('h1')).toHaveText(restaurant.name);
    const heading = await paint.locator('h1').boundingBox();
    const dish = await text(paint.locator('.disc-item__name').first());
    expect(dish).not.toBe('');

    const page = await openPage(browser, baseURL, width);
    await page.goto(path);
    const title = page.getByRole('heading', { level: 1, name: restaurant.name });
    await expect(title).toBeVisible();
    expect(await page.locator(FIRST_PAINT).count(), 'the first paint goes as the page is drawn').toBe(0);
    expect(await text(page.getByTestId('menu-item').first().locator('.disc-item__name'))).toBe(dish);
    const drawn = await title.boundingBox();
    expect({ x: Math.round(drawn.x), y: Math.round(drawn.y) }).toEqual({ x: Math.round(heading.x), y: Math.round(heading.y) });
  });

  test(`at ${width} px a new visitor's landing page is in the HTML, where the page then draws it`, async ({ browser, baseURL }) => {
    const before = await openPage(browser, baseURL, width, { located: false, scripts: false });
    await before.goto('/');
    const paint = before.locator(FIRST_PAINT);
    await expect(paint).toBeVisible();
    const highlights = paint.locator('.disc-landing__highlight-title');
    const titles = await highlights.allTextContents();
    expect(titles.length).toBeGreaterThan(0);
    const first = await highlights.first().boundingBox();

    const page = await openPage(browser, baseURL, width, { located: false });
    await page.goto('/');
    await expect(page.getByTestId('landing-headline')).toBeVisible();
    expect(await page.locator(FIRST_PAINT).count(), 'the first paint goes as the page is drawn').toBe(0);
    const drawn = page.locator('.disc-landing__highlight-title');
    expect(await drawn.allTextContents()).toEqual(titles);
    const box = await drawn.first().boundingBox();
    expect({ x: Math.round(box.x), y: Math.round(box.y) }).toEqual({ x: Math.round(first.x), y: Math.round(first.y) });
  });
}

for (const width of WIDTHS) {
  test(`at ${width} px the cart's restaurant, lines and bill are in the HTML, where the page then draws them`, async ({ browser, baseURL }) => {
    const customer = await sharedCustomer(browser, baseURL);
    /** What is compared: the restaurant's name, the first line's name (with its choices) and To Pay. */
    const parts = (root) => ({
      restaurant: root.locator('.cart-page__name'),
      line: root.locator('.cart-line__name').first(),
      toPay: root.locator('.cart-bill__to-pay strong'),
    });

    const before = await customerPage(browser, baseURL, width, customer, { scripts: false });
    // The cart holds the restaurant's dish, whatever another spec did with this customer's cart.
    await refill(before, customer);
    await before.goto('/cart');
    const paint = before.locator(FIRST_PAINT);
    await expect(paint).toBeVisible();
    await expect(paint.locator('a, button, input, select, textarea, [tabindex], [data-testid], [id]')).toHaveCount(0);
    const painted = {};
    for (const [name, locator] of Object.entries(parts(paint))) painted[name] = await textAndBox(locator);
    expect(painted.restaurant.text).toBe(customer.restaurant.name);
    expect(painted.line.text).toContain(customer.dish.name);
    expect(painted.toPay.text).toMatch(/^₹\d[\d,]*(\.\d\d)?$/);

    const page = await customerPage(browser, baseURL, width, customer);
    await page.goto('/cart');
    await expect(page.getByRole('heading', { level: 1, name: customer.restaurant.name })).toBeVisible();
    expect(await page.locator(FIRST_PAINT).count(), 'the first paint goes as the page is drawn').toBe(0);
    const drawn = parts(page.locator('[data-mfe="mfe-cart"]'));
    for (const [name, locator] of Object.entries(drawn)) expect(await textAndBox(locator), name).toEqual(painted[name]);
  });
}

test("a visitor who shows vegetarian dishes only gets a menu's first paint of those dishes, as the page then draws them", async ({ browser, baseURL }) => {
  const probe = await openPage(browser, baseURL, 412);
  const listing = (await data(await probe.request.get(`/api/restaurants/list/v5?lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}&page_type=DESKTOP_WEB_LISTING&offset=0`))).data;
  const isVeg = (item) => (item.vegType ? item.vegType === 'VEG' : item.isVeg === 1);
  /** A section's dishes in the page's order: its own, then its sub-sections'. */
  const dishesOf = (widget, items) => [...(widget.entities ?? []).map((e) => items[e.id]).filter(Boolean), ...(widget.widgets ?? []).flatMap((w) => dishesOf(w, items))];
  // A menu whose first dishes drawn for everyone include meat or egg, so that showing vegetarian
  // dishes only changes what is drawn first, and with vegetarian dishes to show.
  let restaurant = null;
  for (const { data: card } of listing.cards) {
    const menu = (await data(await probe.request.get(`/api/menu/pl?restaurantId=${card.id}&lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}`))).data;
    const items = menu.menu.items;
    const first = (menu.menu.widgets ?? []).map((w) => dishesOf(w, items)).find((dishes) => dishes.length > 0) ?? [];
    if (first.slice(0, 6).some((i) => !isVeg(i)) && Object.values(items).some(isVeg)) {
      restaurant = menu.restaurant;
      break;
    }
  }
  expect(restaurant, 'a restaurant whose first dishes are not all vegetarian').not.toBeNull();
  const path = `/menu/${restaurant.id}`;
  /** A page whose visitor has switched "Veg only" on earlier: kept in storage, and in the cookie the edge reads. */
  const vegOnlyPage = async (scripts) => {
    const page = await openPage(browser, baseURL, 412, { scripts });
    await page.context().addCookies([{ name: 'tfn_veg_only', value: '1', url: baseURL }]);
    await page.context().addInitScript(() => window.localStorage.setItem('tfn_dweb_vegOnly', 'true'));
    return page;
  };

  const before = await vegOnlyPage(false);
  await before.goto(path);
  const paint = before.locator(FIRST_PAINT);
  await expect(paint.locator('h1')).toHaveText(restaurant.name);
  await expect(paint.locator('.disc-veg-toggle[aria-checked="true"]')).toHaveCount(1);
  await expect(paint.locator('.ds-veg-mark--veg').first()).toBeVisible();
  await expect(paint.locator('.ds-veg-mark--nonveg, .ds-veg-mark--egg')).toHaveCount(0);
  const dishes = await paint.locator('.disc-item__name').allTextContents();
  const firstBox = await paint.locator('.disc-item__name').first().boundingBox();

  const page = await vegOnlyPage(true);
  await page.goto(path);
  await expect(page.getByTestId('veg-only-toggle')).toHaveAttribute('aria-checked', 'true');
  expect(await page.locator(FIRST_PAINT).count(), 'the first paint goes as the page is drawn').toBe(0);
  const drawn = page.getByTestId('menu-item').locator('.disc-item__name');
  expect((await drawn.allTextContents()).slice(0, dishes.length)).toEqual(dishes);
  const box = await drawn.first().boundingBox();
  expect({ x: Math.round(box.x), y: Math.round(box.y) }).toEqual({ x: Math.round(firstBox.x), y: Math.round(firstBox.y) });
});

for (const width of WIDTHS) {
  test(`at ${width} px nothing in the landing page's first paint moves while the page's scripts and styles arrive`, async ({ browser, baseURL }) => {
    const page = await openPage(browser, baseURL, width, { located: false });
    // Runs before the page's own scripts: every layout shift of something inside the first paint.
    await page.context().addInitScript(() => {
      window.__paintShifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          const moved = (entry.sources ?? []).map((s) => s.node).filter((node) => node instanceof Element && node.closest('#tiffin-first-paint'));
          if (moved.length > 0) window.__paintShifts.push(`${entry.value.toFixed(4)}: ${moved.map((node) => node.className).join(', ')}`);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/');
    await expect(page.getByTestId('landing-headline')).toBeVisible();
    expect(await page.locator(FIRST_PAINT).count()).toBe(0);
    expect(await page.evaluate(() => window.__paintShifts)).toEqual([]);
  });
}

test('the first paint is hidden from assistive technology and takes no clicks', async ({ browser, baseURL }) => {
  const page = await openPage(browser, baseURL, 412, { scripts: false });
  await page.goto('/restaurants');
  const paint = page.locator(FIRST_PAINT);
  await expect(paint).toHaveAttribute('aria-hidden', 'true');
  expect(await paint.evaluate((el) => getComputedStyle(el).pointerEvents)).toBe('none');
  // Nothing in it can take focus or be told apart by a test id.
  await expect(paint.locator('a, button, input, select, textarea, [tabindex], [data-testid], [id]')).toHaveCount(0);
});
