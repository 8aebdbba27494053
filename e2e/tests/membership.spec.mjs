// Tiffin One in the browser against the real storefront: the membership page and its header, the
// membership checkout's guard, and buying a plan with the sandbox card from /tiffin-one through
// /checkout/super to the confirmation, then seeing SUPER in /my-account/super and the header's
// membership entry following the customer record, and the member's next food cart with free delivery;
// and a plan added to a food order at checkout,
// after which the member's next cart has free delivery.
//
// Each test signs up its own customer through the API (e2e/support/customer.mjs), located in
// Koramangala, where Tiffin One is sold.
import { expect, test } from '@playwright/test';
import { CARDS, expectConfirmation, fillCard, openCheckout } from '../support/checkout.mjs';
import { KORAMANGALA, data, koramangalaCookie, saveKoramangalaHome, signUp } from '../support/customer.mjs';

test.use({ reducedMotion: 'reduce' });

let uncaught;
test.beforeEach(({ page }) => {
  uncaught = [];
  page.on('pageerror', (error) => uncaught.push(error.message));
});
test.afterEach(() => {
  expect(uncaught, 'uncaught errors in the page').toEqual([]);
});

test('the membership page lists the plans under a header with its title and no location bar', async ({ page, context, baseURL }) => {
  await context.addCookies([koramangalaCookie(baseURL)]);
  await page.goto('/tiffin-one');
  const header = page.getByRole('banner');
  await expect(header.getByRole('heading', { name: 'Tiffin One' })).toBeVisible();
  await expect(header.getByTestId('location-bar')).toHaveCount(0);
  await expect(header.getByRole('link', { name: 'Tiffin home' })).toHaveAttribute('href', '/');
  const plans = page.getByRole('list', { name: 'Tiffin One plans' });
  await expect(plans.getByRole('listitem', { name: 'Tiffin One 3 months' }).getByRole('button', { name: /^Join for ₹/ })).toBeVisible();
});

test('the membership checkout sends a visitor who is not signed in to the membership page', async ({ page }) => {
  await page.goto('/checkout/super');
  await expect(page).toHaveURL(/\/tiffin-one$/);
  await expect(page.getByRole('list', { name: 'Tiffin One plans' })).toBeVisible();
});

test('buying Tiffin One at /checkout/super with a card makes the customer SUPER in /my-account/super, and their next food cart delivers free', async ({ page, context, baseURL }) => {
  await context.addCookies([koramangalaCookie(baseURL)]);
  const member = await signUp(page.request, 'Member Tester');
  const plans = (await data(await page.request.get('/api/super/plans'))).data.plans;
  const plan = plans.find((p) => p.title === '3 months') ?? plans[0];

  await page.goto('/tiffin-one');
  const card = page.getByRole('listitem', { name: `${plan.planName} ${plan.title}` });
  await card.getByRole('button', { name: plan.cta.text }).click();

  await expect(page).toHaveURL(/\/checkout\/super$/);
  const header = page.getByRole('banner');
  await expect(header.getByRole('heading', { name: 'Tiffin One' })).toBeVisible();
  // The membership checkout's header: no cart, no search, and the logo leads nowhere.
  await expect(header.getByTestId('cart-badge')).toHaveCount(0);
  await expect(header.getByRole('link', { name: 'Tiffin home' })).toHaveCount(0);
  await expect(page.getByTestId('checkout-plan')).toContainText(plan.title);
  await fillCard(page, CARDS.ok);
  const pay = page.getByRole('region', { name: 'Payment' }).getByRole('button', { name: /^Pay ₹/ });
  await expect(pay).toHaveText(/^Pay ₹[\d,]+(\.\d+)?$/);
  await pay.click();

  await expect(page).toHaveURL(/\/tiffin-one\/confirm\?order_id=[^&]+$/, { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'Welcome to Tiffin One' })).toBeVisible({ timeout: 20_000 });
  const bought = page.getByTestId('membership-bought');
  await expect(bought).toContainText(plan.title);
  await expect(bought).toContainText(/Starts\s*\d{1,2} \w{3} \d{4}/);
  await expect(bought).toContainText(/Ends\s*\d{1,2} \w{3} \d{4}/);

  await page.goto('/my-account/super');
  await expect(page.getByTestId('membership-status')).toHaveText('Status: Active (SUPER)');
  await expect(page.getByTestId('membership-status').locator('..')).toContainText(plan.title);
  // The header's membership entry follows the customer record, which now says SUPER.
  await page.getByTestId('user-menu-button').click();
  await expect(page.getByRole('menuitem', { name: /^Tiffin One/ })).toHaveAttribute('href', '/my-account/super');
  await expect(page.getByRole('menuitem', { name: /^Tiffin One/ })).toContainText('Member');

  // The member's next food cart: delivery is free, line by line.
  const address = await saveKoramangalaHome(page.request, member);
  const { dish } = await cartMembershipSavesOn(page.request, member.csrf, address.id);
  await openCheckout(page, { address, dish });
  await expect(page.getByRole('complementary', { name: 'Your order' })).toContainText('Tiffin One Free Delivery');
  await expect(page.getByTestId('member-savings')).toHaveText(/^You saved ₹[\d,.]+ with Tiffin One$/);
});

/**
 * For a signed-in customer with a saved Koramangala address: a food cart that Tiffin One saves on
 * (between ₹199 and ₹499 of one plain dish, from a restaurant within 7 km, so the delivery fee is
 * charged to others and waived for members). Answers the restaurant, dish and quantity.
 */
async function cartMembershipSavesOn(request, csrf, addressId) {
  const listing = (await data(await request.get(`/api/restaurants/list/v5?lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}&page_type=DESKTOP_WEB_LISTING&offset=0`))).data;
  for (const { data: restaurant } of listing.cards) {
    const menuPage = (await data(await request.get(`/api/menu/pl?restaurantId=${restaurant.id}&lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}`))).data;
    if ((menuPage.restaurant.deliveryState ?? 'OPEN') !== 'OPEN') continue;
    const dish = Object.values(menuPage.menu.items).find((i) => i.inStock === 1 && !i.customisable && i.finalPrice > 0 && i.finalPrice <= 24_900);
    if (!dish) continue;
    const quantity = Math.ceil(19_900 / dish.finalPrice);
    if (quantity * dish.finalPrice >= 49_900) continue;
    await data(await request.post('/api/cart', { data: { restaurantId: menuPage.restaurant.id, cartItems: [{ menu_item_id: dish.id, quantity, addons: [], variants: [] }], _csrf: csrf } }));
    const cart = (await data(await request.get(`/api/cart?address_id=${addressId}`))).data;
    const fee = cart.bill?.lines.find((l) => l.key === 'DELIVERY_FEE')?.amount ?? 0;
    if (!cart.min_cart_message && cart.distance_km !== null && cart.distance_km <= 6.5 && fee > 0) {
      return { restaurant: menuPage.restaurant, dish, quantity };
    }
  }
  throw new Error('no restaurant near Koramangala where Tiffin One saves on a small cart');
}

test('a Tiffin One plan bought together with food makes the customer a member, and their next cart has free delivery', async ({ page, context, baseURL }) => {
  await context.addCookies([koramangalaCookie(baseURL)]);
  const { mobile, csrf } = await signUp(page.request, 'Plan With Food');
  const address = await saveKoramangalaHome(page.request, { mobile, csrf });
  const { dish, quantity } = await cartMembershipSavesOn(page.request, csrf, address.id);

  // At checkout, the nudge adds the plan to the food order.
  const pay = await openCheckout(page, { address, dish });
  const nudge = page.getByRole('region', { name: 'Tiffin One' });
  await expect(nudge).toContainText(/^Save ₹[\d,.]+ on this order with Tiffin One/);
  await nudge.getByRole('button', { name: 'Add Tiffin One' }).click();
  await expect(page.getByTestId('checkout-plan')).toContainText('Tiffin One');
  await expect(page.getByRole('complementary', { name: 'Your order' })).toContainText('Tiffin One ·');
  await fillCard(page, CARDS.ok);
  await pay.click();
  await expectConfirmation(page, { dish, quantity });

  await expect
    .poll(async () => (await data(await page.request.get('/api/profile/super'))).data.status, { message: 'the customer becomes SUPER', timeout: 20_000 })
    .toBe('SUPER');

  // The next cart like it: the member's bill waives the delivery fee, line by line.
  const again = await cartMembershipSavesOn(page.request, csrf, address.id);
  await openCheckout(page, { address, dish: again.dish });
  const order = page.getByRole('complementary', { name: 'Your order' });
  await expect(order).toContainText('Tiffin One Free Delivery');
  await expect(page.getByTestId('member-savings')).toHaveText(/^You saved ₹[\d,.]+ with Tiffin One$/);
  await expect(page.getByRole('region', { name: 'Tiffin One' })).toHaveCount(0);
});
