// docs/support.md: help that acts on an order, and the desk where agents answer. A customer reports
// a missing item on a delivered order and sees the refund in Tiffin Money; a conversation the rules
// hand to a person is answered at the desk and the customer sees the reply without reloading.
import { expect, test } from '@playwright/test';
import { customerWithCart, data, rupees, signUp } from '../support/customer.mjs';

/** Places the customer's cart, paid by the sandbox card (charged at once), and answers the order id. */
async function placedByCard(page, customer, key) {
  const request = page.request;
  const priced = await data(await request.post('/api/cart/calculate', { data: { address_id: customer.address.id, paymentMethod: 'card', _csrf: customer.csrf } }));
  const placed = await data(
    await request.post('/api/order/place-v2', {
      data: {
        idempotency_key: `e2e-support-${key}-${customer.mobile}`,
        order: { address_id: customer.address.id, to_pay: priced.data.bill.to_pay },
        payment: { method: 'card', card: { number: '4111 1111 1111 1111', expiry_month: 12, expiry_year: 2031, cvv: '123', holder_name: 'Support Tester', save_card: false } },
        _csrf: customer.csrf,
      },
    }),
  );
  expect(placed.data.order_status).toBe('PLACED');
  return String(placed.data.order_id);
}

/** Waits for the order's delivery (simulated 120 times faster than life in the suite's storefront). */
async function delivered(page, orderId) {
  await expect
    .poll(async () => (await data(await page.request.get(`/api/order/trackV2?order_id=${orderId}`))).data.order_status, {
      message: `order ${orderId} delivered`,
      timeout: 60_000,
      intervals: [1000],
    })
    .toBe('DELIVERED');
}

async function tiffinMoney(page) {
  return (await data(await page.request.get('/api/profile/money'))).data.balance;
}

test('a missing item on a delivered order is refunded to Tiffin Money, once', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  const customer = await customerWithCart(page, context, baseURL);
  const orderId = await placedByCard(page, customer, 'missing');
  await delivered(page, orderId);
  const before = await tiffinMoney(page);

  await page.goto(`/support?order_id=${orderId}`);
  const help = page.getByRole('region', { name: 'Help with your order' });
  await expect(help.getByRole('heading', { name: new RegExp(`Order #${orderId} from`) })).toBeVisible();
  await help.getByRole('radio', { name: /missing/i }).check();
  await help.getByRole('spinbutton', { name: new RegExp(customer.dish.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).fill('1');
  const promise = help.getByRole('status').filter({ hasText: 'We will refund' });
  await expect(promise).toBeVisible();
  const promised = /We will refund (₹[\d,]+(?:\.\d+)?)/.exec(await promise.innerText())[1];
  await help.getByRole('radio', { name: /Tiffin Money/i }).check();
  await help.getByRole('button', { name: 'GET HELP' }).click();

  await expect(page).toHaveURL(/\/support\/conversations\/\d+/);
  const conversation = page.getByRole('region', { name: 'Conversation' });
  await expect(conversation.getByLabel('Outcome')).toContainText(promised);
  await expect(conversation.getByLabel('Outcome')).toContainText(/Tiffin Money/);

  const after = await tiffinMoney(page);
  expect(rupees(after - before)).toBe(promised);
  await page.goto('/my-account/payments');
  await expect(page.getByText(rupees(after)).first()).toBeVisible();

  // The same unit cannot be refunded twice: the help page now says it was.
  await page.goto(`/support?order_id=${orderId}`);
  await page.getByRole('region', { name: 'Help with your order' }).getByRole('radio', { name: /missing/i }).check();
  if (customer.quantity === 1) {
    await expect(page.getByText('Already refunded')).toBeVisible();
  } else {
    await expect(page.getByRole('spinbutton').first()).toHaveAttribute('max', String(customer.quantity - 1));
  }
});

test('an agent answers a conversation at the desk and the customer sees it without reloading', async ({ page, context, browser, baseURL }) => {
  test.setTimeout(120_000);
  const customer = await customerWithCart(page, context, baseURL);
  const orderId = await placedByCard(page, customer, 'quality');
  await delivered(page, orderId);

  await page.goto(`/support?order_id=${orderId}`);
  const help = page.getByRole('region', { name: 'Help with your order' });
  await help.getByRole('radio', { name: /quality/i }).check();
  await help.getByRole('textbox').fill('The biryani was cold and soggy.');
  await help.getByRole('button', { name: 'GET HELP' }).click();
  await expect(page).toHaveURL(/\/support\/conversations\/\d+/);
  const conversationId = /\/support\/conversations\/(\d+)/.exec(page.url())[1];
  const messages = page.getByRole('list', { name: 'Messages' });
  await expect(messages).toContainText('The biryani was cold and soggy.');
  await expect(messages).toContainText(/support team/i);

  // A customer's session is turned away from the desk.
  const desk = await browser.newContext({ baseURL });
  const agentPage = await desk.newPage();
  const agent = await signUp(agentPage.request, 'Ravi Agent');
  await agentPage.goto('/desk');
  await expect(agentPage.getByText("This page is for Tiffin's support team.")).toBeVisible();

  // An operator makes them an agent on the admin listener; the desk opens for them.
  const granted = await agentPage.request.post(`${process.env.TIFFIN_E2E_ADMIN_URL}/agents`, { data: { mobile: agent.mobile } });
  expect(granted.status()).toBe(200);
  await agentPage.waitForTimeout(2500); // the edge remembers a session for up to 2 s
  await agentPage.goto(`/desk/conversations/${conversationId}`);
  const panel = agentPage.getByRole('region', { name: 'Conversation' });
  await expect(panel.getByRole('list', { name: 'Messages' })).toContainText('The biryani was cold and soggy.');
  await expect(agentPage.getByRole('complementary', { name: 'Customer and order' })).toContainText(orderId);
  await panel.getByRole('form', { name: 'Reply' }).getByRole('textbox').fill('So sorry about that. We have spoken to the restaurant.');
  await panel.getByRole('button', { name: 'SEND REPLY' }).click();

  // The customer's page, never reloaded, shows the reply with the agent's name.
  await expect(messages).toContainText('So sorry about that. We have spoken to the restaurant.');
  await expect(messages).toContainText('Ravi Agent');
  await desk.close();
});
