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
import { CARDS, expectConfirmation, expectHeaderCartEmpty, fillCard, openCheckout } from '../support/checkout.mjs';
import { customerWithCart, data } from '../support/customer.mjs';

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
