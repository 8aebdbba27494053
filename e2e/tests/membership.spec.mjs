// Tiffin One in the browser against the real storefront: the membership page and its header, the
// membership checkout's guard, and buying a plan with the sandbox card from /tiffin-one through
// /checkout/super to the confirmation, then seeing SUPER in /my-account/super and the header's
// membership entry following the customer record.
//
// Each test signs up its own customer through the API (e2e/support/customer.mjs), located in
// Koramangala, where Tiffin One is sold.
import { expect, test } from '@playwright/test';
import { CARDS, fillCard } from '../support/checkout.mjs';
import { data, koramangalaCookie, signUp } from '../support/customer.mjs';

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

test('buying Tiffin One at /checkout/super with a card makes the customer SUPER in /my-account/super', async ({ page, context, baseURL }) => {
  await context.addCookies([koramangalaCookie(baseURL)]);
  await signUp(page.request, 'Member Tester');
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
});
