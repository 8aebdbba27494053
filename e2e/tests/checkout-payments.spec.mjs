// Checkout's newer ways to pay, in the browser against the real storefront (docs/checkout.md):
// netbanking through the sandbox bank's page in its own window (approved, then declined and paid
// by cash instead), pay-later linked with the provider's OTP right on the checkout page, and split
// pay (Tiffin Money from a cancelled order, the rest by card).
//
// Each test signs up its own customer with a cart through the API (e2e/support/customer.mjs) and
// then drives the pages like a customer. The sandbox's bank page (/sandbox/bank/<payment_id>,
// served by the edge) has Approve, Decline and Cancel; its wallets and pay-later accept OTP 123456.
import { expect, test } from '@playwright/test';
import { CARDS, expectConfirmation, fillCard, openCheckout } from '../support/checkout.mjs';
import { customerWithCart, data, refill, rupees, tiffinMoneyFromCancelledOrder } from '../support/customer.mjs';

const SANDBOX_OTP = '123456';

/** Chooses netbanking and the bank by its name in the list. */
async function chooseBank(page, bankName) {
  const payment = page.getByRole('region', { name: 'Payment' });
  await payment.getByRole('radio', { name: 'Netbanking' }).check();
  await payment.getByLabel('Your bank').selectOption({ label: bankName });
}

/** Presses Pay and answers the window the page opens for the bank, once it shows the bank's page. */
async function payOnBankPage(page, pay) {
  const opened = page.waitForEvent('popup');
  await pay.click();
  const bank = await opened;
  await bank.waitForURL(/\/sandbox\/bank\/[^/?#]+$/);
  await expect(bank.getByRole('button', { name: 'Approve' })).toBeVisible();
  const waiting = page.getByRole('region', { name: 'Waiting for your bank' });
  await expect(waiting.getByRole('heading')).toHaveText("Complete the payment on your bank's page");
  await expect(waiting.getByRole('button', { name: 'Cancel payment' })).toBeEnabled();
  return bank;
}

/**
 * Presses Approve, Decline or Cancel on the bank's page. The checkout closes the bank's window as
 * soon as its polling sees the payment settled, which may be before the bank's answer page has
 * loaded: a click that ends with the window closed has done its work.
 */
async function decide(bank, decision) {
  await bank
    .getByRole('button', { name: decision })
    .click()
    .catch((error) => {
      if (!bank.isClosed()) throw error;
    });
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

test("netbanking: Approve on the bank's page in its window confirms the order", async ({ page, context, baseURL }) => {
  const customer = await customerWithCart(page, context, baseURL);
  const pay = await openCheckout(page, customer);
  await chooseBank(page, 'HDFC Bank');

  const polls = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/payment/upi/txn-status?paas_id=')) polls.push(r.url());
  });
  const bank = await payOnBankPage(page, pay);
  await decide(bank, 'Approve');

  const orderId = await expectConfirmation(page, customer);
  expect(polls.length, 'txn-status polls while the bank page was open').toBeGreaterThan(0);
  // Settled, the checkout closes the bank's window itself.
  await expect.poll(() => bank.isClosed(), { message: "the bank's window is closed" }).toBe(true);
  const details = (await data(await page.request.get(`/api/order/details?order_id=${encodeURIComponent(orderId)}`))).data;
  // Paid, so on its way: the simulated restaurant may already have moved it past PLACED.
  expect(['PLACED', 'ACCEPTED', 'PREPARING', 'RIDER_ASSIGNED', 'PICKED_UP', 'ARRIVING', 'DELIVERED']).toContain(details.order_status);
});

test('netbanking: a decline at the bank keeps the cart, and the order is paid by cash instead', async ({ page, context, baseURL }) => {
  const customer = await customerWithCart(page, context, baseURL);
  const pay = await openCheckout(page, customer);
  await chooseBank(page, 'State Bank of India');
  const bank = await payOnBankPage(page, pay);
  await decide(bank, 'Decline');

  await test.step('the failure shows on the checkout, the bank window closes, the cart stays', async () => {
    const failed = page.getByRole('alert').filter({ hasText: 'Payment failed' });
    await expect(failed).toContainText('Your bank declined the payment');
    await expect(page.getByRole('region', { name: 'Waiting for your bank' })).toBeHidden();
    await expect.poll(() => bank.isClosed(), { message: "the bank's window is closed" }).toBe(true);
    await expect(page).toHaveURL(/\/checkout$/);
    const cart = (await data(await page.request.get('/api/cart'))).data;
    expect(cart.cartItems.map((l) => l.menu_item_id)).toEqual([customer.dish.id]);
  });

  await test.step('cash on delivery pays the same order', async () => {
    await page.getByRole('region', { name: 'Payment' }).getByRole('radio', { name: 'Cash on Delivery' }).check();
    await expect(pay).toBeEnabled();
    await pay.click();
    const orderId = await expectConfirmation(page, customer);
    const details = (await data(await page.request.get(`/api/order/details?order_id=${encodeURIComponent(orderId)}`))).data;
    expect(details.payment_method).toBe('cod');
  });
});

test('pay-later: LazyPay is linked with its OTP on the checkout page, then pays', async ({ page, context, baseURL }) => {
  const customer = await customerWithCart(page, context, baseURL);
  const pay = await openCheckout(page, customer);
  const payLater = page.getByRole('region', { name: 'PAY_LATER' });

  await test.step('not linked: LINK sends the OTP; a wrong one is refused, the right one links', async () => {
    await expect(payLater.getByRole('listitem').filter({ hasText: 'LazyPay' })).toContainText('(not linked)');
    await payLater.getByRole('button', { name: 'LINK' }).click();
    const link = payLater.getByRole('group', { name: /^Link LazyPay/ });
    const otp = link.getByPlaceholder('Enter 6-digit OTP');
    await otp.fill('111111');
    await link.getByRole('button', { name: 'VERIFY' }).click();
    await expect(link.getByRole('alert')).toHaveText('The OTP you entered is incorrect');
    await otp.fill(SANDBOX_OTP);
    await link.getByRole('button', { name: 'VERIFY' }).click();
    await expect(link).toBeHidden();
  });

  await test.step('linked: its available limit shows, and it pays the order', async () => {
    const lazyPay = payLater.getByRole('radio', { name: /^LazyPay \(₹[\d,.]+ available\)$/ });
    await expect(lazyPay).toBeEnabled();
    await lazyPay.check();
    await pay.click();
    await expectConfirmation(page, customer);
    const status = (await data(await page.request.get('/api/payment/paylater/check-linked'))).data;
    expect(status.linked).toBe(true);
  });
});

test('split pay: Tiffin Money pays what it holds and a card the rest', async ({ page, context, baseURL }) => {
  const customer = await customerWithCart(page, context, baseURL);
  const balance = await tiffinMoneyFromCancelledOrder(page, customer);
  // One more of the dish than the refunded order, so the bill is more than the balance.
  await refill(page, customer, customer.quantity + 1);
  const pay = await openCheckout(page, customer);
  const toPay = (await data(await page.request.get(`/api/cart?address_id=${encodeURIComponent(customer.address.id)}`))).data.bill.to_pay;
  expect(balance, 'Tiffin Money is less than the bill').toBeLessThan(toPay);
  await expect(pay).toHaveText(`Pay ${rupees(toPay)}`);

  const payment = page.getByRole('region', { name: 'Payment' });
  await fillCard(page, CARDS.ok);
  const useMoney = payment.getByRole('checkbox', { name: `Use Tiffin Money (${rupees(balance)})` });
  await useMoney.check();
  await expect(payment.getByText(`Pay ${rupees(toPay - balance)} by Credit & Debit cards`)).toBeVisible();

  await test.step('cash cannot be split: the box goes away while cash is chosen', async () => {
    await payment.getByRole('radio', { name: 'Cash on Delivery' }).check();
    await expect(useMoney).toBeHidden();
    await fillCard(page, CARDS.ok);
    await expect(useMoney).toBeChecked();
  });

  await pay.click();
  await expectConfirmation(page, { ...customer, quantity: customer.quantity + 1 });
  const money = (await data(await page.request.get('/api/profile/money'))).data;
  expect(money.balance, 'all of the Tiffin Money went to the order').toBe(0);
});
