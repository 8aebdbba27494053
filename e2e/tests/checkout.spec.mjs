// Checkout in the browser against the real storefront (docs/checkout.md): a signed-in customer
// with a saved address and a plain dish in the cart pays on /checkout with the sandbox instruments
// (a declined card then a good one saved for later, a card that asks for 3-D Secure, UPI collect,
// cash on delivery) and lands on the order confirmation page; the saved card shows in the account's
// Payments tab, where it can be deleted after a confirmation.
//
// Each test signs up its own customer through the API (OTP from the development outbox) in the
// page's own cookie jar, saves an address and fills the cart through the API, then drives the
// pages like a customer. The catalogue is generated, so the restaurant is found through the API.
import { expect, test } from '@playwright/test';

const KORAMANGALA = { lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bengaluru, Karnataka, India', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

const CARDS = {
  ok: '4111 1111 1111 1111',
  threeDSecure: '4000 0000 0000 3220',
  declined: '4000 0000 0000 0002',
};

/** A fresh 10-digit mobile number starting 6-9, so tests and re-runs never share an account. */
const newMobile = () => `${6 + Math.floor(Math.random() * 4)}${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

async function data(response) {
  expect(response.ok(), `${response.url()} → ${response.status()}`).toBe(true);
  const body = await response.json();
  expect([0, 8, 9], body.statusMessage).toContain(body.statusCode);
  return body;
}

let found = null;
/** An open restaurant near Koramangala and one of its in-stock dishes that need no customisation. */
async function restaurantWithPlainDish(request) {
  if (found) return found;
  const listing = (await data(await request.get(`/api/restaurants/list/v5?lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}&page_type=DESKTOP_WEB_LISTING&offset=0`))).data;
  for (const { data: restaurant } of listing.cards) {
    const menuPage = (await data(await request.get(`/api/menu/pl?restaurantId=${restaurant.id}&lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}`))).data;
    if ((menuPage.restaurant.deliveryState ?? 'OPEN') !== 'OPEN') continue;
    const dish = Object.values(menuPage.menu.items).find((i) => i.inStock === 1 && !i.customisable);
    if (dish) return (found = { restaurant: menuPage.restaurant, dish });
  }
  throw new Error('no open restaurant near Koramangala with a plain dish');
}

/**
 * Signs a new customer up through the API in the page's cookie jar (so the page is signed in too),
 * saves a HOME address in Koramangala and puts a plain dish in the cart, enough of it to pass the
 * restaurant's minimum order.
 */
async function customerWithCart(page, context, baseURL) {
  const request = page.request;
  await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);
  const { restaurant, dish } = await restaurantWithPlainDish(request);
  const mobile = newMobile();
  const guest = await (await request.get('/api/cart')).json();
  const since = Date.now() - 1000;
  await data(await request.post('/api/auth/otp', { data: { mobile, _csrf: guest.csrfToken } }));
  let code = null;
  await expect
    .poll(
      async () => {
        const reply = await request.get(`/api/dev/sms?mobile=${mobile}`);
        const message = (await reply.json()).data?.messages?.find((m) => m.sentAt >= since);
        code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1] ?? null;
        return code;
      },
      { message: `an OTP for ${mobile} in the outbox` },
    )
    .not.toBeNull();
  const signedIn = await data(await request.post('/api/auth/verify-otp', { data: { mobile, otp: code, name: 'Checkout Tester', email: '', _csrf: guest.csrfToken } }));
  const csrf = signedIn.csrfToken;
  const saved = (
    await data(
      await request.post('/api/address', {
        data: {
          annotation: 'HOME',
          address: KORAMANGALA.address,
          area: KORAMANGALA.area,
          city: KORAMANGALA.city,
          flat_no: 'Flat 42',
          landmark: 'Near the park',
          lat: KORAMANGALA.lat,
          lng: KORAMANGALA.lng,
          mobile,
          instructions: '',
          _csrf: csrf,
        },
      }),
    )
  ).data.address;
  // Enough of the dish to pass the restaurant's minimum order (the cart says so while it is not).
  let quantity = 0;
  let cart;
  do {
    quantity += 1;
    cart = (await data(await request.post('/api/cart', { data: { restaurantId: restaurant.id, cartItems: [{ menu_item_id: dish.id, quantity, addons: [], variants: [] }], _csrf: csrf } }))).data;
  } while (cart.min_cart_message && quantity < 10);
  expect(cart.min_cart_message ?? null, 'the cart meets the minimum order').toBeNull();
  return { restaurant, dish, quantity, address: saved, csrf, mobile };
}

/** Opens /checkout and picks the saved address; returns the "Pay ₹X" button. */
async function openCheckout(page, { address, dish }) {
  await page.goto('/checkout');
  await expect(page.getByRole('banner')).toContainText('Secure Checkout');
  await expect(page.getByRole('complementary', { name: 'Your order' })).toContainText(dish.name);
  const addressStep = page.getByRole('region', { name: 'Delivery address' });
  const radio = addressStep.getByRole('radio').and(page.locator(`[value="${address.id}"]`));
  await radio.check();
  await expect(radio).toBeChecked();
  const pay = page.getByRole('region', { name: 'Payment' }).getByRole('button', { name: /^Pay ₹/ });
  await expect(pay).toBeEnabled();
  return pay;
}

/** Chooses "card" and fills the form. */
async function fillCard(page, number, { save = false } = {}) {
  const payment = page.getByRole('region', { name: 'Payment' });
  await payment.locator('input[name="chk-method"][value="card"]').check();
  await payment.getByLabel('Card number').fill(number);
  await payment.getByLabel('Expiry (MM/YY)').fill('12/31');
  await payment.getByLabel('CVV').fill('123');
  await payment.getByLabel('Name on card').fill('Checkout Tester');
  const saveBox = payment.getByRole('checkbox', { name: 'Save this card for faster checkout' });
  if (save) await saveBox.check();
  else await saveBox.uncheck();
}

/** The confirmation page for the order just placed: its id, total in ₹ and the tracking link. */
async function expectConfirmation(page, { dish, quantity }) {
  await expect(page).toHaveURL(/\/order-confirmation\/[^/]+$/, { timeout: 20_000 });
  const orderId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop());
  const placed = page.getByRole('region', { name: 'Order placed' });
  await expect(placed.getByRole('heading', { name: 'Order placed' })).toBeVisible();
  await expect(placed).toContainText(`Order #${orderId}`);
  await expect(placed.getByRole('list', { name: 'Items ordered' })).toContainText(`${quantity} × ${dish.name}`);
  await expect(placed.locator('.chk-confirmation__total')).toHaveText(/Total paid\s*₹\s?[\d,]+(\.\d+)?/);
  await expect(placed.getByRole('link', { name: 'Track order' })).toHaveAttribute('href', `/track-order/${orderId}`);
  return orderId;
}

/** The header's cart, on a page that shows it, is empty. */
async function expectHeaderCartEmpty(page) {
  await page.goto('/cart');
  await expect(page.getByTestId('cart-badge')).toHaveText('0');
}

test.use({ reducedMotion: 'reduce' });

let uncaught;
test.beforeEach(({ page }) => {
  uncaught = [];
  page.on('pageerror', (error) => uncaught.push(error.message));
});
test.afterEach(() => {
  expect(uncaught, 'uncaught errors in the page').toEqual([]);
});

test('card: a declined card keeps the cart; a good card, saved, confirms the order', async ({ page, context, baseURL }) => {
  const customer = await customerWithCart(page, context, baseURL);
  const pay = await openCheckout(page, customer);
  const toPay = (await pay.textContent()).replace(/^Pay /, '');

  await test.step('4000 0000 0000 0002 is declined: the reason shows, the cart stays', async () => {
    await fillCard(page, CARDS.declined);
    await pay.click();
    const failed = page.getByRole('alert').filter({ hasText: 'Payment failed' });
    await expect(failed).toContainText('Your card was declined');
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByRole('complementary', { name: 'Your order' })).toContainText(customer.dish.name);
    const cart = (await data(await page.request.get('/api/cart'))).data;
    expect(cart.cartItems.map((l) => l.menu_item_id)).toEqual([customer.dish.id]);
  });

  await test.step('4111 1111 1111 1111 with "save card": the confirmation page, then an empty cart', async () => {
    await fillCard(page, CARDS.ok, { save: true });
    await expect(pay).toBeEnabled();
    await pay.click();
    await expectConfirmation(page, customer);
    await expect(page.locator('.chk-confirmation__total strong')).toHaveText(toPay);
    await expectHeaderCartEmpty(page);
  });
});

test('card with 3-D Secure: the bank page asks for the OTP, then confirms', async ({ page, context, baseURL }) => {
  const customer = await customerWithCart(page, context, baseURL);
  const pay = await openCheckout(page, customer);
  await fillCard(page, CARDS.threeDSecure);
  await pay.click();

  const bank = page.getByRole('dialog', { name: 'Verify your payment' });
  await expect(bank).toBeVisible();
  await bank.getByRole('button', { name: 'Submit' }).click();
  await expect(bank.getByRole('alert')).toHaveText('Please enter the OTP.');
  await bank.getByLabel('One-time password').fill('123456');
  await bank.getByRole('button', { name: 'Submit' }).click();
  await expectConfirmation(page, customer);
});

test('UPI collect: the countdown runs while the page polls, then confirms', async ({ page, context, baseURL }) => {
  test.setTimeout(90_000);
  const customer = await customerWithCart(page, context, baseURL);
  const pay = await openCheckout(page, customer);
  const payment = page.getByRole('region', { name: 'Payment' });
  await payment.locator('input[name="chk-method"][value="upi_collect"]').check();
  await payment.getByLabel('Your UPI ID').fill('success@tiffin');

  const polls = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/payment/upi/txn-status?paas_id=')) polls.push(r.url());
  });
  await pay.click();
  const waiting = page.getByRole('region', { name: 'Waiting for the payment' });
  await expect(waiting).toContainText('success@tiffin');
  await expect(waiting.getByRole('timer')).toHaveText(/^\d+:\d\d$/);
  await expectConfirmation(page, customer);
  expect(polls.length, 'txn-status polls before the payment settled').toBeGreaterThan(1);
});

test('cash on delivery confirms at once', async ({ page, context, baseURL }) => {
  const customer = await customerWithCart(page, context, baseURL);
  const pay = await openCheckout(page, customer);
  await page.getByRole('region', { name: 'Payment' }).locator('input[name="chk-method"][value="cod"]').check();
  await pay.click();
  await expectConfirmation(page, customer);
});

test('Payments tab: a card saved at checkout is listed, and deleted only after confirming', async ({ page, context, baseURL }) => {
  const customer = await customerWithCart(page, context, baseURL);
  const pay = await openCheckout(page, customer);
  await fillCard(page, CARDS.ok, { save: true });
  await pay.click();
  await expectConfirmation(page, customer);

  await page.goto('/my-account/payments');
  const saved = page.getByRole('region', { name: 'Saved cards' });
  const card = saved.getByTestId('saved-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('•••• 1111');

  await card.getByRole('button', { name: 'DELETE' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Are you sure you want to delete this card?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'CANCEL' }).click();
  await expect(confirm).toBeHidden();
  await expect(card).toHaveCount(1);

  await card.getByRole('button', { name: 'DELETE' }).click();
  await confirm.getByRole('button', { name: 'DELETE' }).click();
  await expect(confirm).toBeHidden();
  await expect(card).toHaveCount(0);
  await expect(saved).toContainText('You have no saved cards.');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Saved cards' })).toContainText('You have no saved cards.');
});
