// Styles travel with the components that use them: a page opened directly (a reload, a link),
// where only its own microfrontend has loaded, renders the shared cart components
// (@tiffin/cart-store/ui) styled. Each component imports its own stylesheet; before that the
// stylesheet hung off the package's re-exporting entry, which webpack skips (the package declares
// itself free of side effects but for CSS), so no remote ever shipped it.
//
// The assertions read computed styles that only those stylesheets set: a browser's defaults give
// a <div> display:block, an <li> display:list-item and no border to a <section>.
import { expect, test } from '@playwright/test';
import { data, KORAMANGALA, restaurantWithPlainDish } from '../support/customer.mjs';
import { sharedCustomer } from '../support/shared-customer.mjs';

/** The computed value of one CSS property of the first element the locator finds. */
const style = (locator, property) => locator.first().evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

/** A guest's cart in the page's own cookie jar: 2 × a plain dish of an open restaurant. */
async function guestWithCart(page, context, baseURL) {
  await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);
  const { restaurant, dish } = await restaurantWithPlainDish(page.request);
  const guest = await (await page.request.get('/api/cart')).json();
  await data(
    await page.request.post('/api/cart', {
      data: { restaurantId: restaurant.id, cartItems: [{ menu_item_id: dish.id, quantity: 2, addons: [], variants: [] }], _csrf: guest.csrfToken },
    }),
  );
  return { restaurant, dish };
}

/** The styles cart-store/ui's own stylesheets give its lines and bill, wherever they are shown. */
async function expectCartUiStyled(scope) {
  const line = scope.locator('li.cart-line');
  await expect(line.first()).toBeVisible();
  expect(await style(line, 'display'), 'an item row is a grid (CartLines.css)').toBe('grid');
  const billLine = scope.locator('.cart-bill__line');
  await expect(billLine.first()).toBeVisible();
  expect(await style(billLine, 'display'), 'a bill line is a flex row (Bill.css)').toBe('flex');
  expect(await style(billLine, 'justify-content'), 'a bill line puts its price at the end (Bill.css)').toBe('space-between');
  expect(await style(scope.locator('.cart-bill__to-pay'), 'border-top-width'), 'TO PAY has a rule above it (Bill.css)').toBe('2px');
}

test.use({ reducedMotion: 'reduce' });

test('/cart opened directly shows its item rows, bill lines and coupons styled', async ({ page, context, baseURL }) => {
  const { dish } = await guestWithCart(page, context, baseURL);

  // A direct load: nothing but the shell and mfe-cart has run in this page.
  await page.goto('/cart');
  const cart = page.getByRole('region', { name: 'Cart', exact: true });
  await expect(cart.getByRole('list', { name: 'Items in cart' })).toContainText(dish.name);
  // Each remote's webpack runtime leaves its chunk global: only the shell's and the cart's are here.
  expect(await page.evaluate(() => Object.keys(window).filter((key) => key.startsWith('webpackChunk')).sort()), 'no other remote ran first').toEqual([
    'webpackChunkmfe_cart',
    'webpackChunkshell',
  ]);

  await expectCartUiStyled(cart);
  expect(await style(cart.locator('.cart-stepper'), 'border-top-style'), 'the quantity stepper has a border (CartLines.css)').toBe('solid');
  expect(await style(cart.locator('.cart-coupons'), 'border-top-style'), 'the coupon box has a dashed border (CouponBox.css)').toBe('dashed');
  expect(await style(cart.locator('.cart-page__restaurant'), 'display'), 'the restaurant row is a flex row (CartRestaurant.css)').toBe('flex');
});

test('/checkout opened directly shows its order summary styled', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const customer = await sharedCustomer(browser, baseURL);
  const context = await browser.newContext({ baseURL, storageState: customer.storageState, reducedMotion: 'reduce' });
  const page = await context.newPage();

  await page.goto('/checkout');
  const summary = page.getByRole('complementary', { name: 'Your order' });
  await expect(summary).toContainText(customer.dish.name);
  expect(await page.evaluate(() => Object.keys(window).some((key) => key === 'webpackChunkmfe_cart')), 'the cart remote did not run first').toBe(false);
  await expectCartUiStyled(summary);
  await context.close();
});
