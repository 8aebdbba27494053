// The cart in the browser against the real storefront: a guest's cart survives a reload,
// adding from another restaurant asks before replacing the cart (keep, then replace), and logging
// in merges the guest's cart into the account's cart (docs/cart-merge.md: same restaurant, lines
// combined), which the page shows without a reload.
//
// The catalogue is generated, so the test asks the edge (the same API the page uses) for two open
// restaurants with dishes that need no customisation, then drives the pages like a customer.
import { expect, test } from '@playwright/test';

const KORAMANGALA = { lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bengaluru, Karnataka, India', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };
const mobile = `8${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;

async function data(response) {
  expect(response.ok(), `${response.url()} → ${response.status()}`).toBe(true);
  const body = await response.json();
  expect([0, 8, 9], body.statusMessage).toContain(body.statusCode);
  return body.data;
}

/** In-stock dishes that need no customisation (ADD puts them straight in the cart). */
const plainDishes = (menu) => Object.values(menu.items).filter((i) => i.inStock === 1 && !i.customisable);

/** Two open restaurants near Koramangala, each with at least two plain dishes. */
async function twoRestaurants(request) {
  const listing = await data(await request.get(`/api/restaurants/list/v5?lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}&page_type=DESKTOP_WEB_LISTING&offset=0`));
  const found = [];
  for (const { data: restaurant } of listing.cards) {
    const menuPage = await data(await request.get(`/api/menu/pl?restaurantId=${restaurant.id}&lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}`));
    if ((menuPage.restaurant.deliveryState ?? 'OPEN') !== 'OPEN') continue;
    const all = plainDishes(menuPage.menu);
    // Two dishes with different names, so the page's lines can be told apart by name.
    const second = all.find((d) => d.name !== all[0]?.name);
    if (!second) continue;
    const dishes = [all[0], second];
    found.push({ restaurant: menuPage.restaurant, dishes });
    if (found.length === 2) break;
  }
  expect(found.length, 'two open restaurants near Koramangala with plain dishes').toBe(2);
  return found;
}

const card = (page, itemId) => page.locator(`[data-testid="menu-item"][data-item-id="${itemId}"]`).first();
const cartRegion = (page) => page.getByRole('region', { name: 'Cart', exact: true });

/** Signs a number up through the API in its own cookie jar (not the page's) and fills its cart. */
async function accountWithCart(playwright, baseURL, restaurantId, dish, quantity) {
  // Where the customer is, as the page's location picker leaves it: a cart is only served to a point.
  const host = new URL(baseURL).hostname;
  const location = { name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), domain: host, path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' };
  const api = await playwright.request.newContext({ baseURL, storageState: { cookies: [location], origins: [] } });
  const since = Date.now() - 1000;
  const first = await (await api.get('/api/cart')).json();
  await data(await api.post('/api/auth/otp', { data: { mobile, _csrf: first.csrfToken } }));
  let code = null;
  await expect
    .poll(async () => {
      const reply = await api.get(`/api/dev/sms?mobile=${mobile}`);
      const message = (await reply.json()).data?.messages?.find((m) => m.sentAt >= since);
      code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1] ?? null;
      return code;
    })
    .not.toBeNull();
  const signedIn = await (await api.post('/api/auth/verify-otp', { data: { mobile, otp: code, name: 'Cart Tester', email: '', _csrf: first.csrfToken } })).json();
  expect(signedIn.statusCode, signedIn.statusMessage).toBe(0);
  await data(
    await api.post('/api/cart', {
      data: { restaurantId, cartItems: [{ menu_item_id: dish.id, quantity, addons: [], variants: [] }], _csrf: signedIn.csrfToken },
    }),
  );
  await api.dispose();
}

test.use({ reducedMotion: 'reduce' });

test('cart: guest cart across reload, replace-cart prompt, login merges the guest cart', async ({ page, context, baseURL, playwright }) => {
  test.setTimeout(180_000);
  const uncaught = [];
  page.on('pageerror', (error) => uncaught.push(error.message));
  await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);
  const [a, b] = await twoRestaurants(page.request);
  // An account (in its own cookie jar) whose cart holds 2 × b's first dish, for the merge step.
  await accountWithCart(playwright, baseURL, b.restaurant.id, b.dishes[0], 2);
  const signedUpAt = Date.now();

  await test.step('a guest adds a dish; the cart survives a reload', async () => {
    await page.goto(`/menu/${a.restaurant.id}`);
    await card(page, a.dishes[0].id).getByTestId('add-button').click();
    await expect(card(page, a.dishes[0].id).getByTestId('stepper-quantity')).toHaveText('1');
    await expect(page.getByTestId('cart-badge')).toHaveText('1');
    // The menu's cart panel shows the same cart.
    const panel = page.getByTestId('menu-cart-panel');
    await expect(panel).toContainText(a.restaurant.name);
    await expect(panel.getByRole('group', { name: `Quantity of ${a.dishes[0].name}` })).toContainText('1');

    await page.reload();
    await expect(page.getByTestId('cart-badge')).toHaveText('1');
    await expect(card(page, a.dishes[0].id).getByTestId('stepper-quantity')).toHaveText('1');
    await page.goto('/cart');
    await expect(cartRegion(page).getByRole('heading', { level: 1, name: a.restaurant.name, exact: true })).toBeVisible();
    await expect(cartRegion(page).getByRole('list', { name: 'Items in cart' })).toContainText(a.dishes[0].name);
  });

  await test.step('adding from another restaurant asks first; "No" keeps the cart', async () => {
    await page.goto(`/menu/${b.restaurant.id}`);
    await card(page, b.dishes[0].id).getByTestId('add-button').click();
    const dialog = page.getByTestId('replace-cart-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`Your cart contains items from ${a.restaurant.name}.`);
    await dialog.getByRole('button', { name: 'No' }).click();
    await expect(dialog).toBeHidden();
    const cart = await data(await page.request.get('/api/cart'));
    expect(cart.restaurant_details.id).toBe(a.restaurant.id);
    expect(cart.cartItems.map((l) => l.menu_item_id)).toEqual([a.dishes[0].id]);
    await expect(page.getByTestId('cart-badge')).toHaveText('1');
  });

  await test.step('"Yes, start afresh" replaces the cart with the new restaurant\'s dish', async () => {
    await card(page, b.dishes[0].id).getByTestId('add-button').click();
    await page.getByTestId('replace-cart-confirm').click();
    await expect(card(page, b.dishes[0].id).getByTestId('stepper-quantity')).toHaveText('1');
    await expect
      .poll(async () => {
        const cart = await data(await page.request.get('/api/cart'));
        return [cart.restaurant_details?.id, ...cart.cartItems.map((l) => `${l.menu_item_id}×${l.quantity}`)];
      })
      .toEqual([b.restaurant.id, `${b.dishes[0].id}×1`]);
    await expect(page.getByTestId('cart-badge')).toHaveText('1');
  });

  await test.step('logging in merges the guest cart into the account cart (same restaurant: lines combined)', async () => {
    // The account holds 2 × dish 0 (set up at the start); the guest holds 1 × dish 0 and adds
    // 1 × dish 1. Merged: dish 0's quantities are summed (3) and dish 1 is appended.
    await card(page, b.dishes[1].id).getByTestId('add-button').click();
    await expect(page.getByTestId('cart-badge')).toHaveText('2');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Login' }).click();
    const sidebar = page.getByRole('dialog', { name: 'Login' });
    await sidebar.getByLabel('Phone number').fill(mobile);
    // The API sign-up asked for a code for this number; the edge's resend cooldown is 30 s.
    const wait = signedUpAt + 31_000 - Date.now();
    if (wait > 0) await page.waitForTimeout(wait);
    const since = Date.now() - 1000;
    await sidebar.getByRole('button', { name: 'LOGIN' }).click();
    const otp = sidebar.getByPlaceholder('Enter 6-digit OTP');
    await expect(otp).toBeVisible();
    let code = null;
    await expect
      .poll(async () => {
        const reply = await page.request.get(`/api/dev/sms?mobile=${mobile}`);
        const message = (await reply.json()).data?.messages?.find((m) => m.sentAt >= since);
        code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1] ?? null;
        return code;
      })
      .not.toBeNull();
    await otp.fill(code);
    await sidebar.getByRole('button', { name: 'VERIFY OTP' }).click();
    await expect(sidebar).toBeHidden();

    // Without a reload: the badge follows the merged cart (2 + 1 of dish 0, 1 of dish 1).
    await expect(page.getByTestId('cart-badge')).toHaveText('4');
    await expect(card(page, b.dishes[0].id).getByTestId('stepper-quantity')).toHaveText('3');
    await expect(card(page, b.dishes[1].id).getByTestId('stepper-quantity')).toHaveText('1');
    await page.goto('/cart');
    const lines = cartRegion(page).getByRole('list', { name: 'Items in cart' });
    await expect(lines.getByRole('group', { name: `Quantity of ${b.dishes[0].name}` })).toContainText('3');
    await expect(lines.getByRole('group', { name: `Quantity of ${b.dishes[1].name}` })).toContainText('1');
  });

  expect(uncaught, 'uncaught errors in the page').toEqual([]);
});

test("cart: a guest's cart comes back, priced, after the session cookie is lost", async ({ page, context, baseURL }) => {
  // docs/cart-merge.md "The guest's copy in the browser": the store keeps the guest's choices in
  // localStorage (tfn_dweb_cartV2, never a price); a page whose new guest session has no cart
  // sends them back and the server prices them again.
  test.setTimeout(120_000);
  const uncaught = [];
  page.on('pageerror', (error) => uncaught.push(error.message));
  const location = { name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL };
  await context.addCookies([location]);
  const [a] = await twoRestaurants(page.request);
  const [first, second] = a.dishes;

  let before;
  await test.step('a guest fills a cart: 2 × one dish, 1 × another', async () => {
    await page.goto(`/menu/${a.restaurant.id}`);
    await card(page, first.id).getByTestId('add-button').click();
    await expect(card(page, first.id).getByTestId('stepper-quantity')).toHaveText('1');
    await card(page, first.id).getByTestId('stepper-increment').click();
    await expect(card(page, first.id).getByTestId('stepper-quantity')).toHaveText('2');
    await card(page, second.id).getByTestId('add-button').click();
    await expect(page.getByTestId('cart-badge')).toHaveText('3');
    before = await data(await page.request.get('/api/cart'));
    expect(before.cartItems.map((l) => `${l.menu_item_id}×${l.quantity}`)).toEqual([`${first.id}×2`, `${second.id}×1`]);

    const stored = await page.evaluate(() => localStorage.getItem('tfn_dweb_cartV2'));
    const copy = JSON.parse(stored);
    expect(copy.restaurantId).toBe(a.restaurant.id);
    expect(copy.cartItems.map((l) => `${l.menu_item_id}×${l.quantity}`)).toEqual([`${first.id}×2`, `${second.id}×1`]);
    expect(stored).not.toMatch(/price|final|total/i);
  });

  await test.step('the session cookie is cleared: the server has no cart for the new session', async () => {
    await context.clearCookies();
    await context.addCookies([location]); // where to deliver is a separate cookie; keep it
    const fresh = await data(await page.request.get('/api/cart'));
    expect(fresh.cartItems).toEqual([]);
    // That probe's session is not the page's next one: drop it too.
    await context.clearCookies();
    await context.addCookies([location]);
  });

  await test.step('a reload restores the same lines, priced by the server', async () => {
    await page.reload();
    await expect(page.getByTestId('cart-badge')).toHaveText('3');
    await expect(card(page, first.id).getByTestId('stepper-quantity')).toHaveText('2');
    await expect(card(page, second.id).getByTestId('stepper-quantity')).toHaveText('1');
    const after = await data(await page.request.get('/api/cart'));
    expect(after.restaurant_details.id).toBe(a.restaurant.id);
    expect(after.cartItems.map((l) => [l.menu_item_id, l.quantity, l.final_price])).toEqual(before.cartItems.map((l) => [l.menu_item_id, l.quantity, l.final_price]));
    expect(after.item_total).toBe(before.item_total);
    expect(after.item_total).toBeGreaterThan(0);

    await page.goto('/cart');
    const lines = cartRegion(page).getByRole('list', { name: 'Items in cart' });
    await expect(lines.getByRole('group', { name: `Quantity of ${first.name}` })).toContainText('2');
    await expect(lines.getByRole('group', { name: `Quantity of ${second.name}` })).toContainText('1');
    expect(paise(await page.getByTestId('cart-to-pay').innerText())).toBe(after.bill.to_pay);
  });

  expect(uncaught, 'uncaught errors in the page').toEqual([]);
});

/** '₹249', '₹1,249', '-₹100', '₹249.50' → signed paise. */
function paise(text) {
  const match = /(-?)₹\s*([\d,]+)(?:\.(\d{2}))?/.exec(text);
  if (!match) throw new Error(`no rupee amount in "${text}"`);
  return (match[1] ? -1 : 1) * (Number(match[2].replaceAll(',', '')) * 100 + Number(match[3] ?? 0));
}

test('cart: the bill with tooltips, coupons (not applicable, apply, remove), cutlery and the note', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  const uncaught = [];
  page.on('pageerror', (error) => uncaught.push(error.message));
  await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);
  const [a] = await twoRestaurants(page.request);

  const found = {};
  await test.step('a guest cart for which some coupon applies', async () => {
    await page.goto(`/menu/${a.restaurant.id}`);
    await card(page, a.dishes[0].id).getByTestId('add-button').click();
    await expect(page.getByTestId('cart-badge')).toHaveText('1');
    // Coupons have minimum cart values: add units until one applies (at most 20 of a dish).
    for (let quantity = 1; ; quantity += 3) {
      const reply = await (await page.request.get('/api/cart')).json();
      const coupon = (reply.data.coupons ?? []).find((c) => c.applicable && c.code === reply.data.best_coupon);
      if (coupon) {
        Object.assign(found, { coupon, before: reply.data });
        break;
      }
      if (quantity + 3 > 20) break;
      await data(
        await page.request.post('/api/cart', {
          data: { restaurantId: a.restaurant.id, cartItems: [{ menu_item_id: a.dishes[0].id, quantity: quantity + 3, addons: [], variants: [] }], _csrf: reply.csrfToken },
        }),
      );
    }
    expect(found.coupon, `an applicable coupon at ${a.restaurant.name}`).toBeTruthy();
  });
  const { coupon, before } = found;

  await test.step('the cart page shows every bill line with its tooltip, and To Pay', async () => {
    await page.goto('/cart');
    const bill = page.getByRole('region', { name: 'Bill Details' });
    await expect(bill).toBeVisible();
    for (const line of before.bill.lines) {
      const row = bill.locator(`[data-bill-line="${line.key}"]`);
      await expect(row).toContainText(line.label);
      if (line.key === 'DELIVERY_FEE' && line.amount === 0) await expect(row.locator('dd')).toHaveText('FREE');
      else expect(paise(await row.locator('dd').innerText())).toBe(line.amount);
      if (line.tooltip) {
        await row.getByRole('button', { name: `About ${line.label}` }).click();
        await expect(row.getByRole('tooltip')).toHaveText(line.tooltip);
        await row.getByRole('button', { name: `About ${line.label}` }).press('Escape');
      }
    }
    expect(paise(await page.getByTestId('cart-to-pay').innerText())).toBe(before.bill.to_pay);
    await expect(page.getByTestId('best-coupon')).toContainText(coupon.code);
  });

  await test.step('a code that does not apply shows the reason, and the cart stays', async () => {
    const probe = await (await page.request.get('/api/cart')).json();
    const refused = await (await page.request.post('/api/cart/applyCoupon', { data: { couponCode: 'NOSUCHCOUPON', _csrf: probe.csrfToken } })).json();
    expect(refused.statusCode).toBe(1);
    await page.getByPlaceholder('Enter coupon code').fill('NOSUCHCOUPON');
    await page.getByRole('region', { name: 'Coupons' }).getByRole('button', { name: 'APPLY', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Coupons' }).getByRole('alert')).toHaveText(refused.statusMessage);
    expect(paise(await page.getByTestId('cart-to-pay').innerText())).toBe(before.bill.to_pay);
  });

  await test.step('the best coupon applies: its discount is billed and To Pay is the server\'s', async () => {
    await page.getByTestId('best-coupon').getByRole('button', { name: `APPLY ${coupon.code}` }).click();
    await expect(page.getByTestId('coupon-applied')).toContainText(`${coupon.code} applied`);
    const after = await data(await page.request.get('/api/cart'));
    expect(after.coupon_code).toBe(coupon.code);
    await expect.poll(async () => paise(await page.getByTestId('cart-to-pay').innerText())).toBe(after.bill.to_pay);
    if (coupon.type !== 'FREEBIE') expect(after.bill.to_pay).toBeLessThan(before.bill.to_pay);
    if (after.discount_message) await expect(page.getByTestId('coupon-applied')).toContainText(after.discount_message);
  });

  await test.step('removing it restores the bill', async () => {
    await page.getByTestId('coupon-applied').getByRole('button', { name: 'REMOVE' }).click();
    await expect(page.getByPlaceholder('Enter coupon code')).toBeVisible();
    await expect.poll(async () => paise(await page.getByTestId('cart-to-pay').innerText())).toBe(before.bill.to_pay);
    const after = await data(await page.request.get('/api/cart'));
    expect(after.coupon_code || null).toBeNull(); // the edge answers "" (or null) without a coupon
  });

  await test.step("cutlery and the note are kept with the cart across a reload", async () => {
    const cutlery = page.getByRole('checkbox', { name: "Don't send cutlery" });
    await expect(cutlery).not.toBeChecked(); // Not selected by default
    await cutlery.check();
    await expect(page.getByTestId('cutlery-instruction')).toHaveText('DONT SEND CUTLERY');
    const note = page.getByLabel('Any suggestions? We will pass it on…');
    await note.fill('Ring the bell <twice> & wait');
    await note.blur();
    await expect.poll(async () => (await data(await page.request.get('/api/cart'))).order_comments).toBe('Ring the bell twice  wait');
    await page.reload();
    await expect(page.getByRole('checkbox', { name: "Don't send cutlery" })).toBeChecked();
    await expect(page.getByLabel('Any suggestions? We will pass it on…')).toHaveValue('Ring the bell twice  wait');
    const cart = await data(await page.request.get('/api/cart'));
    expect(cart.cutlery_instruction).toBe('DONT SEND CUTLERY');
  });

  expect(uncaught, 'uncaught errors in the page').toEqual([]);
});
