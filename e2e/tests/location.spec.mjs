// The delivery location in the browser against the real storefront: the header's
// location bar opens the location sidebar (mfe_discovery/LocationSidebar); a location is chosen
// by typing, by the device position (permission granted, fixed coordinates) and, signed in, from
// a saved address; the different-location hint shows when the device is far from the chosen
// location and its secondary action opens the sidebar.
import { expect, test } from '@playwright/test';

const KORAMANGALA = { lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bengaluru, Karnataka, India', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };
// The gazetteer's Connaught Place (Delhi), about 1,740 km from Koramangala.
const CONNAUGHT_PLACE = { latitude: 28.6315, longitude: 77.2167 };

async function userLocation(context) {
  const cookie = (await context.cookies()).find((c) => c.name === 'userLocation');
  return cookie ? JSON.parse(decodeURIComponent(cookie.value)) : null;
}

/** Opens the listing for Koramangala and waits for its restaurants. */
async function openListing(page, context, baseURL) {
  await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);
  await page.goto('/restaurants');
  await expect(page.getByTestId('restaurant-card').first()).toBeVisible();
}

function sidebarOf(page) {
  return page.getByRole('dialog', { name: 'Choose a delivery location' });
}

async function openSidebar(page) {
  await page.getByTestId('location-bar').click();
  const sidebar = sidebarOf(page);
  await expect(sidebar).toBeVisible();
  return sidebar;
}

test('location: type a place in the header sidebar; Escape closes it and gives focus back', async ({ page, context, baseURL }) => {
  const uncaught = [];
  page.on('pageerror', (error) => uncaught.push(error.message));
  await openListing(page, context, baseURL);
  await expect(page.getByTestId('location-bar')).toContainText('Koramangala');

  // Escape closes it; focus returns to the location bar that opened it.
  let sidebar = await openSidebar(page);
  await expect(sidebar.getByTestId('location-input')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(sidebar).toBeHidden();
  await expect(page.getByTestId('location-bar')).toBeFocused();

  // Typing lists the gazetteer's places; choosing one sets the location and closes the sidebar.
  sidebar = await openSidebar(page);
  const relisted = page.waitForResponse((r) => r.url().includes('/api/restaurants/list/v5') && r.url().includes('lat=12.9784'));
  await sidebar.getByTestId('location-input').pressSequentially('indira', { delay: 30 });
  await sidebar.getByRole('option', { name: /^Indiranagar/ }).click();
  await expect(sidebar).toBeHidden();

  await expect(page.getByTestId('location-bar')).toContainText('Indiranagar');
  expect(await userLocation(context)).toMatchObject({ lat: 12.9784, lng: 77.6408, area: 'Indiranagar', city: 'bangalore' });
  // The listing follows the new location without a page load.
  expect((await relisted).ok()).toBe(true);
  await expect(page.getByTestId('restaurant-card').first()).toBeVisible();
  expect(uncaught).toEqual([]);
});

test('location: the device position, with the permission granted, becomes the location', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['geolocation'], { origin: baseURL });
  await context.setGeolocation(CONNAUGHT_PLACE);
  await openListing(page, context, baseURL);

  const sidebar = await openSidebar(page);
  const recommended = page.waitForResponse((r) => r.url().includes('/api/misc/address-recommend') && r.url().includes('latlng=28.6315'));
  await sidebar.getByRole('button', { name: /Get current location/ }).click();
  expect((await recommended).ok()).toBe(true);
  await expect(sidebar).toBeHidden();

  // The fix itself is stored, named by the nearest locality of the gazetteer.
  await expect(page.getByTestId('location-bar')).toContainText('Connaught Place');
  expect(await userLocation(context)).toMatchObject({ lat: 28.6315, lng: 77.2167, area: 'Connaught Place', city: 'delhi' });
  await expect(page.getByTestId('restaurant-card').first()).toBeVisible();
});

test('location: without the permission, the sidebar says location services are disabled', async ({ page, context, baseURL }) => {
  await context.clearPermissions();
  await openListing(page, context, baseURL);

  const sidebar = await openSidebar(page);
  await sidebar.getByRole('button', { name: /Get current location/ }).click();

  await expect(sidebar.getByRole('alert')).toHaveText('Location services is disabled');
  expect(await userLocation(context)).toMatchObject({ area: 'Koramangala' });
});

test('location: a signed-in customer picks a saved address', async ({ page, context, baseURL }) => {
  // Sign up and save an address through the API in the page's own cookie jar (the account tests
  // cover doing it through the pages).
  const mobile = `8${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const since = Date.now() - 1000;
  const first = await (await page.request.get('/api/cart')).json();
  const sent = await (await page.request.post('/api/auth/otp', { data: { mobile, _csrf: first.csrfToken } })).json();
  expect(sent.statusCode, sent.statusMessage).toBe(0);
  let code = null;
  await expect
    .poll(async () => {
      const reply = await page.request.get(`/api/dev/sms?mobile=${mobile}`);
      const message = (await reply.json()).data?.messages?.find((m) => m.sentAt >= since);
      code = /\b(\d{6})\b/.exec(message?.body ?? '')?.[1] ?? null;
      return code;
    })
    .not.toBeNull();
  const signedIn = await (await page.request.post('/api/auth/verify-otp', { data: { mobile, otp: code, name: 'Loc Tester', email: '', _csrf: first.csrfToken } })).json();
  expect(signedIn.statusCode, signedIn.statusMessage).toBe(0);
  const saved = await (
    await page.request.post('/api/address', {
      data: {
        annotation: 'WORK',
        address: 'Desk 7, 100 Feet Road, Indiranagar',
        area: 'Indiranagar',
        flat_no: 'Desk 7',
        landmark: '',
        lat: 12.9784,
        lng: 77.6408,
        instructions: '',
        city: 'bangalore',
        _csrf: signedIn.csrfToken,
      },
    })
  ).json();
  expect(saved.statusCode, saved.statusMessage).toBe(0);
  const addressId = saved.data.address.id;

  await openListing(page, context, baseURL);
  await expect(page.getByTestId('user-menu-button')).toHaveText('Loc');
  const sidebar = await openSidebar(page);
  const address = sidebar.getByTestId('saved-address').filter({ hasText: 'Desk 7, 100 Feet Road, Indiranagar' });
  await expect(address).toContainText('Work');
  await address.click();
  await expect(sidebar).toBeHidden();

  // The location is the saved address, with its id and annotation; the bar shows its place and address.
  expect(await userLocation(context)).toMatchObject({ id: addressId, annotation: 'WORK', lat: 12.9784, lng: 77.6408, area: 'Indiranagar' });
  await expect(page.getByTestId('location-bar')).toContainText('Indiranagar');
  await expect(page.getByTestId('location-bar')).toContainText('Desk 7, 100 Feet Road');
});

test('location: the different-location hint shows once a session; CHANGE LOCATION opens the sidebar', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['geolocation'], { origin: baseURL });
  await context.setGeolocation(CONNAUGHT_PLACE);
  await openListing(page, context, baseURL);

  const hint = page.getByTestId('different-location-hint');
  await expect(hint).toBeVisible();
  await expect(hint).toContainText('km from Koramangala');
  await hint.getByRole('button', { name: 'CHANGE LOCATION' }).click();
  await expect(hint).toBeHidden();
  await expect(sidebarOf(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(sidebarOf(page)).toBeHidden();

  // Once per session: a reload in the same tab does not show it again.
  await page.reload();
  await expect(page.getByTestId('restaurant-card').first()).toBeVisible();
  // Give the position lookup (5 s timeout at most, near-instant here) time to answer.
  await page.waitForTimeout(1000);
  await expect(hint).toHaveCount(0);
});

test('location: no different-location hint when the device is near the chosen location', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['geolocation'], { origin: baseURL });
  await context.setGeolocation({ latitude: 12.94, longitude: 77.63 });
  await openListing(page, context, baseURL);
  await page.waitForTimeout(1000);
  await expect(page.getByTestId('different-location-hint')).toHaveCount(0);
});
