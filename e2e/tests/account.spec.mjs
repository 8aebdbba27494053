// Accounts in the browser against the real storefront: sign up with an OTP read from the
// development outbox, log out, log in, add a home and a work address, deliver to one and see it in
// the header, the default address on the next sign-in, and the profile (email change pending,
// then verified by its link; an SMS preference that survives a reload); and a new number that
// logs in, asked for a name only once its code is right.
import { expect, test } from '@playwright/test';

// A fresh number per run, so re-runs against the same storefront never collide.
const mobile = `9${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
const name = 'Asha Testwala';
// The edge refuses a new code for the same number within 30 s (docs/edge-api.md).
const RESEND_COOLDOWN_MS = 31_000;

/** The newest outbox message to `query` (mobile=… or email=…) sent after `since` (epoch ms). */
async function newestMessage(page, query, since) {
  let body = null;
  await expect
    .poll(
      async () => {
        const reply = await page.request.get(`/api/dev/sms?${query}`);
        if (!reply.ok()) return null;
        const message = (await reply.json()).data.messages.find((m) => m.sentAt >= since);
        body = message?.body ?? null;
        return body;
      },
      { message: `an outbox message for ${query}` },
    )
    .not.toBeNull();
  return body;
}

async function readOtp(page, since) {
  const body = await newestMessage(page, `mobile=${mobile}`, since);
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  expect(code, `a 6-digit code in "${body}"`).toBeTruthy();
  return code;
}

let lastCodeAt = 0;
/** Waits out the edge's resend cooldown for this number, then returns the time the code is asked. */
async function beforeCode(page) {
  const wait = lastCodeAt + RESEND_COOLDOWN_MS - Date.now();
  if (wait > 0) await page.waitForTimeout(wait);
  // The cooldown runs from this moment or later (the code is asked after it), so it is not
  // backdated: waiting from an earlier time asked for the next code a second too soon. Only the
  // outbox search starts a second earlier, in case the edge's clock runs a little behind.
  lastCodeAt = Date.now();
  return lastCodeAt - 1000;
}

async function logIn(page) {
  const sidebar = page.getByRole('dialog', { name: 'Login' });
  await expect(sidebar).toBeVisible();
  await sidebar.getByLabel('Phone number').fill(mobile);
  const since = await beforeCode(page);
  await sidebar.getByRole('button', { name: 'LOGIN' }).click();
  const otp = sidebar.getByPlaceholder('Enter 6-digit OTP');
  await expect(otp).toBeVisible();
  await otp.fill(await readOtp(page, since));
  await sidebar.getByRole('button', { name: 'VERIFY OTP' }).click();
  await expect(sidebar).toBeHidden();
}

async function logOut(page) {
  await page.getByTestId('user-menu-button').click();
  await Promise.all([page.waitForEvent('load'), page.getByRole('menu', { name: 'Account' }).getByRole('menuitem', { name: 'Logout' }).click()]);
}

async function userLocation(context) {
  const cookie = (await context.cookies()).find((c) => c.name === 'userLocation');
  return cookie ? JSON.parse(decodeURIComponent(cookie.value)) : null;
}

async function addAddress(page, { flat, annotation }) {
  await page.getByRole('button', { name: 'ADD NEW ADDRESS' }).click();
  const panel = page.getByRole('dialog', { name: 'Save delivery address' });
  await panel.locator('input[name="place"]').pressSequentially('kora', { delay: 30 });
  await panel.getByRole('button', { name: /^Koramangala/ }).first().click();
  await expect(panel.getByTestId('picked-place')).toContainText('Koramangala');
  await panel.getByLabel('Door / Flat No.').fill(flat);
  await panel.getByLabel('Landmark').fill('Near the park');
  await panel.getByRole('radio', { name: annotation }).check();
  await panel.getByRole('button', { name: /SAVE ADDRESS/ }).click();
  await expect(panel).toBeHidden();
}

test('sign up, log out, log in, addresses, default address, profile', async ({ page, context }) => {
  test.setTimeout(240_000);
  const uncaught = [];
  page.on('pageerror', (error) => uncaught.push(error.message));

  await test.step('sign up from the landing page with an OTP from the outbox', async () => {
    await page.goto('/');
    await page.getByTestId('landing-signup').click();
    const sidebar = page.getByRole('dialog', { name: 'Sign up' });
    await expect(sidebar).toBeVisible();
    await sidebar.getByLabel('Phone number').fill(mobile);
    await sidebar.getByLabel('Name').fill(name);
    const since = await beforeCode(page);
    await sidebar.getByRole('button', { name: 'CONTINUE' }).click();

    const otp = sidebar.getByPlaceholder('Enter 6-digit OTP');
    await expect(otp).toBeVisible();
    await expect(sidebar.getByTestId('resend-countdown')).toHaveText(/Resend OTP in 0:\d\d/);
    await sidebar.getByRole('button', { name: 'VERIFY OTP' }).click();
    await expect(sidebar.getByRole('alert')).toHaveText('Please enter the OTP.');
    await otp.fill(await readOtp(page, since));
    await sidebar.getByRole('button', { name: 'VERIFY OTP' }).click();
    await expect(sidebar).toBeHidden();

    // The session is signed in: the account area opens and the header names the new user.
    await page.goto('/my-account');
    await expect(page).toHaveURL(/\/my-account$/);
    await expect(page.getByTestId('user-menu-button')).toHaveText('Asha');
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByText("You haven't placed any order yet.")).toBeVisible();
  });

  await test.step('log out: the session ends and the account area sends the visitor home', async () => {
    await logOut(page);
    const profile = await page.request.get('/api/profile/info');
    expect(profile.status()).toBe(401);
    await page.goto('/my-account/orders');
    await expect(page).toHaveURL(/\/$/);
  });

  await test.step('log in from the header: the name replaces Login without a page load', async () => {
    await page.goto('/cart');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Login' }).click();
    await logIn(page);
    await expect(page.getByTestId('user-menu-button')).toHaveText('Asha');
    await expect(page).toHaveURL(/\/cart$/);
  });

  await test.step('add a home and a work address', async () => {
    await page.getByTestId('user-menu-button').click();
    await page.getByRole('menu', { name: 'Account' }).getByRole('menuitem', { name: 'Favourites' }).click();
    await expect(page.getByText('Where is the love?')).toBeVisible();
    await page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'Addresses' }).click();
    await expect(page.getByText("Can't find a door to knock")).toBeVisible();

    await addAddress(page, { flat: 'Flat 101', annotation: 'Home' });
    await addAddress(page, { flat: 'Desk 7', annotation: 'Work' });

    const cards = page.getByTestId('address');
    await expect(cards).toHaveCount(2);
    await expect(page.locator('[data-testid="address"][data-annotation="HOME"]')).toContainText('Flat 101');
    await expect(page.locator('[data-testid="address"][data-annotation="WORK"]')).toContainText('Desk 7');
    await page.reload();
    await expect(cards).toHaveCount(2);
  });

  await test.step('drop the map pin (tiles blocked): the nearest locality becomes the picked place', async () => {
    // Tests have no internet; blocking tiles outright proves the map works without them.
    await page.route('https://tile.openstreetmap.org/**', (route) => route.abort());
    await page.getByRole('button', { name: 'ADD NEW ADDRESS' }).click();
    const panel = page.getByRole('dialog', { name: 'Save delivery address' });
    const pin = panel.locator('.leaflet-marker-icon');
    await pin.scrollIntoViewIfNeeded();
    await expect(pin).toBeVisible();
    await expect(panel.getByTestId('picked-place')).toHaveCount(0);

    const box = await pin.boundingBox();
    const resolved = page.waitForResponse((r) => r.url().includes('/api/misc/address-recommend?latlng='));
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2 + 30, { steps: 10 });
    await page.mouse.up();
    expect((await resolved).status()).toBe(200);
    await expect(panel.getByTestId('picked-place')).not.toBeEmpty();
    await expect(panel.getByText('The map could not load. You can still move the pin.')).toBeVisible();

    // The keyboard way: a "Move pin" button resolves the new point the same way.
    const nudged = page.waitForResponse((r) => r.url().includes('/api/misc/address-recommend?latlng='));
    await panel.getByRole('button', { name: 'Move pin east' }).focus();
    await page.keyboard.press('Enter');
    expect((await nudged).status()).toBe(200);
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(panel).toBeHidden();
    await page.unroute('https://tile.openstreetmap.org/**');
  });

  await test.step('deliver to the home address: the header shows that location', async () => {
    await page.locator('[data-testid="address"][data-annotation="HOME"]').getByRole('button', { name: 'DELIVER HERE' }).click();
    const location = await userLocation(context);
    expect(location).toMatchObject({ annotation: 'HOME', area: expect.stringMatching(/Koramangala/), lat: expect.any(Number), lng: expect.any(Number) });
    await page.goto('/');
    await expect(page.locator('header .shell-location-bar__title')).toHaveText(/Koramangala/);
    await expect(page.getByTestId('restaurant-card').first()).toBeVisible();
  });

  await test.step('signing in without a location applies the default address (work in working hours)', async () => {
    await page.goto('/cart');
    await logOut(page);
    await context.clearCookies({ name: 'userLocation' });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Login' }).click();
    await logIn(page);
    // The rule reads the browser's local clock: Monday–Friday 09:00–18:00 is working hours.
    const working = await page.evaluate(() => {
      const now = new Date();
      return now.getDay() >= 1 && now.getDay() <= 5 && now.getHours() >= 9 && now.getHours() < 18;
    });
    await expect.poll(async () => (await userLocation(context))?.annotation).toBe(working ? 'WORK' : 'HOME');
  });

  await test.step('profile: an email change is pending until its link is opened', async () => {
    await page.goto('/my-account/profile');
    await page.getByTestId('profile-email').getByRole('button', { name: 'CHANGE' }).click();
    const email = `asha.${mobile}@example.com`;
    const since = Date.now() - 1000;
    await page.getByLabel('New email').fill(email);
    await page.getByRole('button', { name: 'VERIFY EMAIL' }).click();
    await expect(page.getByTestId('pending-email')).toContainText(`A verification link has been sent to ${email}`);
    await page.reload();
    await expect(page.getByTestId('pending-email')).toContainText(email);

    const body = await newestMessage(page, `email=${encodeURIComponent(email)}`, since);
    const link = /\/my-account\/verify-email\?token=[^\s"]+/.exec(body)?.[0];
    expect(link, `a verification link in "${body}"`).toBeTruthy();
    await page.goto(link);
    await expect(page.getByText(`Your email ${email} is verified.`)).toBeVisible();
    await page.goto('/my-account/profile');
    await expect(page.getByTestId('profile-email')).toContainText(email);
    await expect(page.getByTestId('pending-email')).toHaveCount(0);
  });

  await test.step('settings: order SMS stays on; a reminder toggle survives a reload', async () => {
    await page.goto('/my-account/settings');
    const orders = page.getByRole('switch', { name: 'Order related SMS' });
    await expect(orders).toHaveAttribute('aria-checked', 'true');
    await expect(orders).toBeDisabled();
    const reminders = page.getByRole('switch', { name: 'Reminders' });
    const before = await reminders.getAttribute('aria-checked');
    const after = before === 'true' ? 'false' : 'true';
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/profile/update-notification-preference') && r.ok());
    await reminders.click();
    await saved;
    await expect(reminders).toHaveAttribute('aria-checked', after);
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Reminders' })).toHaveAttribute('aria-checked', after);
    await expect(page.getByRole('switch', { name: 'Reminders' })).toHaveCSS('background-color', after === 'true' ? 'rgb(255, 82, 0)' : 'rgb(212, 213, 217)');
  });

  expect(uncaught, 'uncaught errors in the page').toEqual([]);
});

test('a new number logging in is asked for a name only after its right code', async ({ page }) => {
  // Its own number: nothing before it in this file has sent it a code, so no cooldown to wait.
  const newcomer = `8${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  await page.goto('/cart');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Login' }).click();
  const login = page.getByRole('dialog', { name: 'Login' });
  await login.getByLabel('Phone number').fill(newcomer);
  const since = Date.now() - 1000;
  await login.getByRole('button', { name: 'LOGIN' }).click();

  // The code step looks the same for every number: nothing says yet that this one is new.
  const otp = login.getByPlaceholder('Enter 6-digit OTP');
  await expect(otp).toBeVisible();
  await expect(login.getByLabel('Name')).toHaveCount(0);
  const body = await newestMessage(page, `mobile=${newcomer}`, since);
  await otp.fill(/\b(\d{6})\b/.exec(body)[1]);
  await login.getByRole('button', { name: 'VERIFY OTP' }).click();

  const signup = page.getByRole('dialog', { name: 'Sign up' });
  await expect(signup.getByRole('status')).toHaveText("You're new here! Tell us your name to create your account.");
  await signup.getByLabel('Name').fill('Ravi Newcomer');
  await signup.getByRole('button', { name: 'VERIFY OTP' }).click();
  await expect(signup).toBeHidden();
  await expect(page.getByTestId('user-menu-button')).toHaveText('Ravi');
});
