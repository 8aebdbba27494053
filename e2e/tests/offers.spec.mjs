// Payment offers in the browser against the real storefront: the offers page's two tabs, and a
// bank offer applied at checkout when the customer types a qualifying card (the sandbox's HDFC
// Bank test card), priced again by the server and charged exactly.
//
// Each test signs up its own customer through the API (e2e/support/customer.mjs).
import { expect, test } from '@playwright/test';
import { expectConfirmation, fillCard, openCheckout } from '../support/checkout.mjs';
import { customerWithCart, data, koramangalaCookie, rupees } from '../support/customer.mjs';

test.use({ reducedMotion: 'reduce' });

const HDFC_CARD = '4386 2800 0000 0004';

let uncaught;
test.beforeEach(({ page }) => {
  uncaught = [];
  page.on('pageerror', (error) => uncaught.push(error.message));
});
test.afterEach(() => {
  expect(uncaught, 'uncaught errors in the page').toEqual([]);
});

test('the offers page has restaurant offers and payment offers with coupons, each on its own tab', async ({ page, context, baseURL }) => {
  await context.addCookies([koramangalaCookie(baseURL)]);
  await page.goto('/offers');
  await expect(page).toHaveURL(/\/offers\/restaurant$/);
  await expect(page.getByRole('heading', { name: 'Offers for you' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Offers near you' })).toBeVisible();

  await page.getByRole('link', { name: 'Payment offers/Coupons' }).click();
  await expect(page).toHaveURL(/\/offers\/payment$/);
  const offers = page.getByRole('list', { name: 'Payment offers' });
  const hdfc = offers.getByRole('listitem', { name: '10% off with HDFC Bank cards' });
  await expect(hdfc).toContainText('10% OFF');
  await expect(hdfc).toContainText('Min cart amount ₹299');
  await expect(hdfc).toContainText('Valid till 31 Mar 2027');
  await expect(offers.getByRole('listitem', { name: '15% off with MobiKwik' })).toBeVisible();
  const coupons = page.getByRole('list', { name: 'Coupons' });
  const upi50 = coupons.getByRole('listitem', { name: 'UPI50' });
  await expect(upi50).toContainText('Min cart amount ₹299');
  await expect(upi50.getByRole('button', { name: 'Copy code' })).toBeVisible();
  // Back to the restaurants.
  await page.getByRole('link', { name: 'Restaurant offers' }).click();
  await expect(page).toHaveURL(/\/offers\/restaurant$/);
});

test('typing an HDFC Bank card applies the bank offer to the bill and the order is charged that bill', async ({ page, context, baseURL }) => {
  const customer = await customerWithCart(page, context, baseURL);
  // Enough of the dish for the offer's ₹299.
  let cart;
  let quantity = customer.quantity;
  do {
    cart = (await data(await page.request.post('/api/cart', { data: { restaurantId: customer.restaurant.id, cartItems: [{ menu_item_id: customer.dish.id, quantity, addons: [], variants: [] }], _csrf: customer.csrf } }))).data;
    quantity += 1;
  } while (cart.item_total < 29_900 && quantity <= 50);
  const plain = (await data(await page.request.post('/api/cart/calculate', { data: { address_id: customer.address.id, _csrf: customer.csrf } }))).data.bill.to_pay;
  const off = Math.min(Math.floor(plain / 10), 10_000);

  const pay = await openCheckout(page, customer);
  const payment = page.getByRole('region', { name: 'Payment' });
  await expect(payment.getByTestId('method-offer').filter({ hasText: '10% off with HDFC Bank cards' })).toBeVisible();
  await fillCard(page, HDFC_CARD);
  await expect(pay).toHaveText(`Pay ${rupees(plain - off)}`);
  await expect(page.getByTestId('payment-offer-applied')).toContainText(`${rupees(off)} off with HDFC Bank cards`);
  await expect(page.getByRole('complementary', { name: 'Your order' })).toContainText('Bank Offer (HDFC Bank)');
  await pay.click();

  const orderId = await expectConfirmation(page, { dish: customer.dish, quantity: quantity - 1 });
  const order = (await data(await page.request.get(`/api/order/details?order_id=${encodeURIComponent(orderId)}`))).data;
  expect(order.order_total).toBe(plain - off);

  // Used for today: the offers page says so.
  await page.goto('/offers/payment');
  await expect(page.getByRole('list', { name: 'Payment offers' }).getByRole('listitem', { name: '10% off with HDFC Bank cards' })).toContainText('Used');
});
