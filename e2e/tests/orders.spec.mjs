// After the order, in the browser against the real storefront (docs/order-life.md): the tracking
// page follows a cash order to delivered (the storefront under test delivers 120 times faster
// than real time), the order page cancels one with the refund to Tiffin Money, reorders one back
// into the cart, downloads the PDF invoice, and the order history pages past ten orders.
//
// Orders are placed through the API (checkout itself is checkout.spec.mjs's); everything after
// that is driven through the pages.
import { expect, test } from '@playwright/test';
import { customerWithCart, data, refill, rupees } from '../support/customer.mjs';

/** Places the customer's cart by cash on delivery through the API; answers the order id. */
async function placeByCash(page, customer, n = 0) {
  const request = page.request;
  const priced = await data(
    await request.post('/api/cart/calculate', { data: { address_id: customer.address.id, paymentMethod: 'cod', _csrf: customer.csrf } }),
  );
  const placed = await data(
    await request.post('/api/order/place-v2', {
      data: {
        idempotency_key: `e2e-${customer.mobile}-${n}`,
        order: { address_id: customer.address.id, to_pay: priced.data.bill.to_pay },
        payment: { method: 'cod' },
        _csrf: customer.csrf,
      },
    }),
  );
  expect(placed.statusCode, placed.statusMessage).toBe(0);
  expect(placed.data.order_status).toBe('PLACED');
  return placed.data.order_id;
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

test('tracking follows a cash order from received to delivered, with the rider on the map', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  const customer = await customerWithCart(page, context, baseURL);
  const orderId = await placeByCash(page, customer);

  await page.goto(`/track-order/${orderId}`);
  await expect(page.getByRole('banner')).toContainText('Live Order Tracking');
  const tracking = page.getByRole('region', { name: 'Order tracking' });
  await expect(tracking).toBeVisible();
  // A real map with the restaurant and the address on it, in a box that was kept for it.
  await expect(tracking.locator('.leaflet-container')).toBeVisible();
  await expect(tracking.locator('.leaflet-marker-icon').first()).toBeVisible();
  await expect(tracking.getByText('For help and queries, please contact the restaurant')).toBeVisible();
  await expect(tracking.locator('a[href^="tel:+91"]')).toBeVisible();

  // Every status the page shows, in order, as it changes on the page without a reload.
  await page.evaluate(() => {
    const seen = [];
    window.__trackingSeen = seen;
    const note = () => {
      const text = document.querySelector('.chk-track__status')?.textContent ?? '';
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    };
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });

  await test.step('the statuses arrive as they happen, through the stream, before the first poll', async () => {
    // The page polls every 30 s; the simulator (120 times real speed) delivers in well under
    // that, so reaching "Order Delivered" this soon means the updates were streamed.
    await expect(tracking.locator('.chk-track__status')).toHaveText('Order Delivered', { timeout: 28_000 });
    const seen = await page.evaluate(() => window.__trackingSeen);
    const life = ['Order Received', 'Order Confirmed', 'Preparing', 'Rider Assigned', 'Order Picked Up', 'Arriving', 'Order Delivered'];
    expect(seen.every((status) => life.includes(status)), seen.join(' → ')).toBe(true);
    const positions = seen.map((status) => life.indexOf(status));
    expect(positions, 'in the order of the life').toEqual([...positions].sort((a, b) => a - b));
    expect(seen.length, seen.join(' → ')).toBeGreaterThanOrEqual(3);
  });

  await test.step('delivered: the tag says so and the order page shows the whole history', async () => {
    await expect(tracking.locator('.chk-track__status')).toHaveText('Order Delivered');
    await page.goto(`/my-account/orders/${orderId}`);
    const history = page.getByRole('region', { name: 'Status history' });
    await expect(history).toContainText('Delivered');
    await expect(history.getByRole('listitem')).toHaveCount(8);
  });
});

test('a logged-out visitor opening a tracking link is sent home', async ({ page }) => {
  await page.goto('/track-order/123456789012');
  await expect(page).toHaveURL(/\/$/);
});

test('cancelling from the order page states the fee and refunds to Tiffin Money', async ({ page, context, baseURL }) => {
  const customer = await customerWithCart(page, context, baseURL);
  // A card payment, so there is something to refund: placed through the API with the sandbox card.
  const priced = await data(
    await page.request.post('/api/cart/calculate', { data: { address_id: customer.address.id, paymentMethod: 'card', _csrf: customer.csrf } }),
  );
  const placed = await data(
    await page.request.post('/api/order/place-v2', {
      data: {
        idempotency_key: `e2e-cancel-${customer.mobile}`,
        order: { address_id: customer.address.id, to_pay: priced.data.bill.to_pay },
        payment: { method: 'card', card: { number: '4111 1111 1111 1111', expiry_month: 12, expiry_year: 2031, cvv: '123', holder_name: 'Cancel Tester', save_card: false } },
        _csrf: customer.csrf,
      },
    }),
  );
  expect(placed.data.order_status).toBe('PLACED');
  const orderId = placed.data.order_id;
  const total = placed.data.order_total;

  await page.goto(`/my-account/orders/${orderId}`);
  await page.getByRole('button', { name: 'Cancel order' }).click();
  const dialog = page.getByRole('dialog', { name: `Cancel order #${orderId}?` });
  // Free until the restaurant accepts, half the total after: at 120× it may already have.
  await expect(dialog).toContainText(/Cancelling now is free\.|A cancellation fee of ₹[\d,.]+ applies\./);
  await dialog.getByRole('radio', { name: 'Tiffin Money' }).check();
  await dialog.getByRole('button', { name: 'CANCEL ORDER' }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Your order has been cancelled.' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Tiffin Money');

  const details = (await data(await page.request.get(`/api/order/details?order_id=${orderId}`))).data;
  expect(details.order_status).toBe('CANCELLED');
  expect(details.refund.destination).toBe('TIFFIN_MONEY');
  expect(details.refund.amount + details.charges['Cancellation Fee']).toBe(total);
  const money = (await data(await page.request.get('/api/profile/money'))).data;
  expect(money.balance).toBe(details.refund.amount);
});

test('a cash order cancelled after the restaurant accepted it puts its fee on the next cart', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  const customer = await customerWithCart(page, context, baseURL);
  const request = page.request;
  const withFee = ['ACCEPTED', 'PREPARING', 'RIDER_ASSIGNED'];
  let cancelled = null;
  // The fee is kept only while the restaurant is on it; at 120× real time that window is a few
  // seconds, so an order that slips past it (picked up first) is replaced by another.
  for (let n = 0; n < 3 && !cancelled; n += 1) {
    if (n > 0) await refill(page, customer);
    const orderId = await placeByCash(page, customer, n);
    let status = '';
    await expect
      .poll(
        async () => {
          status = (await data(await request.get(`/api/order/details?order_id=${orderId}`))).data.order_status;
          return status !== 'PLACED';
        },
        { message: 'the restaurant took the order', intervals: [100] },
      )
      .toBe(true);
    if (!withFee.includes(status)) continue;
    const reply = await data(await request.post(`/api/cancel-only/order/${orderId}`, { data: { _csrf: customer.csrf } }));
    if (reply.statusCode === 0 && reply.data.cancellation_fee > 0) cancelled = { orderId, fee: reply.data.cancellation_fee };
  }
  expect(cancelled, 'a cash order cancelled with a fee').not.toBeNull();

  await refill(page, customer);
  await page.goto('/cart');
  const notice = page.getByRole('complementary', { name: 'Cancellation fee added' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(`A cancellation fee of ${rupees(cancelled.fee)}`);
  await expect(notice.getByRole('link', { name: 'VIEW ORDER' })).toHaveAttribute('href', `/my-account/orders/${cancelled.orderId}`);
  const line = page.getByRole('region', { name: 'Bill Details' }).locator('[data-bill-line="CANCELLATION_DUE"]');
  await expect(line).toContainText('Cancellation Fee');
  await expect(line.locator('dd')).toHaveText(rupees(cancelled.fee));
});

test('reorder puts the order back in the cart; the invoice downloads as a PDF', async ({ page, context, baseURL }) => {
  const customer = await customerWithCart(page, context, baseURL);
  const orderId = await placeByCash(page, customer);
  const emptied = (await data(await page.request.get('/api/cart'))).data;
  expect(emptied.cartItems ?? []).toEqual([]);

  await page.goto(`/my-account/orders/${orderId}`);
  await expect(page.getByRole('article', { name: `Order #${orderId}` })).toContainText(customer.dish.name);

  await test.step('the invoice', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download invoice' }).click()]);
    expect(download.suggestedFilename()).toBe(`tiffin-invoice-${orderId}.pdf`);
    const bytes = await (await download.createReadStream()).toArray();
    expect(Buffer.concat(bytes).subarray(0, 4).toString()).toBe('%PDF');
  });

  await test.step('reorder: nothing changed, so straight on to checkout with the dish', async () => {
    await page.getByRole('button', { name: 'Reorder' }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    const cart = (await data(await page.request.get('/api/cart'))).data;
    expect(cart.cartItems.map((l) => [l.menu_item_id, l.quantity])).toEqual([[customer.dish.id, customer.quantity]]);
  });
});

test('order history shows ten orders and pages to the eleventh', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  const customer = await customerWithCart(page, context, baseURL);
  for (let n = 0; n < 11; n += 1) {
    if (n > 0) await refill(page, customer);
    await placeByCash(page, customer, n);
  }
  await page.goto('/my-account/orders');
  const cards = page.locator('[data-testid="order"]');
  // Active and past tabs split them; together the first page holds ten.
  const count = async () => {
    let total = 0;
    for (const tab of ['Active Orders', 'Past Orders']) {
      await page.getByRole('tab', { name: tab }).click();
      total += await cards.count();
    }
    return total;
  };
  await expect(page.getByRole('button', { name: 'Show More Orders' })).toBeVisible();
  expect(await count()).toBe(10);
  await page.getByRole('button', { name: 'Show More Orders' }).click();
  await expect(page.getByText('To view older orders, please use Tiffin App')).toBeVisible();
  expect(await count()).toBe(11);
});
