// What the checkout tests share: opening /checkout with the customer's address chosen, filling the
// card form, and reading the order confirmation page (docs/checkout.md).
import { expect } from '@playwright/test';

export const CARDS = {
  ok: '4111 1111 1111 1111',
  threeDSecure: '4000 0000 0000 3220',
  declined: '4000 0000 0000 0002',
};

/** Opens /checkout and picks the saved address; returns the "Pay ₹X" button. */
export async function openCheckout(page, { address, dish }) {
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
export async function fillCard(page, number, { save = false } = {}) {
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
export async function expectConfirmation(page, { dish, quantity }) {
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
export async function expectHeaderCartEmpty(page) {
  await page.goto('/cart');
  await expect(page.getByTestId('cart-badge')).toHaveText('0');
}
