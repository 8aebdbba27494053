// The foundation path a customer walks (README "What you will see"), in order, against the real
// storefront: landing → location by keyboard → listing → menu → ADD → header badge → /cart.
import { expect, test } from '@playwright/test';

// The landing headline rotates every 3 s unless the visitor prefers reduced motion; with it, the
// first headline stays put, so "Hungry?" can be asserted without racing the rotation.
test.use({ reducedMotion: 'reduce' });

const DAY_S = 24 * 60 * 60;
/** '₹249', '₹1,249', '₹249.50' → paise. */
function paise(text) {
  const match = /₹\s*([\d,]+)(?:\.(\d{2}))?/.exec(text);
  if (!match) throw new Error(`no rupee amount in "${text}"`);
  return Number(match[1].replaceAll(',', '')) * 100 + Number(match[2] ?? 0);
}

async function userLocationCookie(context) {
  const cookie = (await context.cookies()).find((c) => c.name === 'userLocation');
  return cookie ? { cookie, value: JSON.parse(decodeURIComponent(cookie.value)) } : null;
}

test('landing → Koramangala by keyboard → listing → menu → ADD → badge → cart', async ({ page, context }) => {
  test.setTimeout(120_000);
  const uncaught = [];
  page.on('pageerror', (error) => uncaught.push(error.message));

  await test.step('landing page with the popular cities in the footer', async () => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.getByTestId('landing-headline')).toHaveText('Hungry?');
    await expect(page.getByText('Order food from favourite restaurants near you.')).toBeVisible();
    const popular = page.locator('footer').getByRole('region', { name: 'Popular cities in India' }).filter({ visible: true });
    await expect(popular).toHaveCount(1);
    for (const city of ['Bangalore', 'Mumbai', 'Delhi', 'Chennai']) {
      await expect(popular.getByRole('link', { name: city, exact: true })).toBeVisible();
    }
    expect(await userLocationCookie(context)).toBeNull();
  });

  await test.step('type "kora", pick Koramangala with ArrowDown + Enter', async () => {
    const input = page.getByTestId('location-input');
    await input.click();
    await input.pressSequentially('kora', { delay: 30 });
    const suggestions = page.getByTestId('location-suggestion');
    await expect(suggestions.first()).toBeVisible();
    const texts = await suggestions.allInnerTexts();
    const index = texts.findIndex((text) => /^Koramangala\b/.test(text.trim()));
    expect(index, `Koramangala among ${JSON.stringify(texts)}`).toBeGreaterThanOrEqual(0);
    for (let i = 0; i <= index; i += 1) await input.press('ArrowDown');
    await expect(suggestions.nth(index)).toHaveAttribute('aria-selected', 'true');
    await expect(input).toHaveAttribute('aria-activedescendant', (await suggestions.nth(index).getAttribute('id')) ?? '');
    await input.press('Enter');
  });

  const cards = page.getByTestId('restaurant-card');
  await test.step('the listing shows restaurant cards for Koramangala', async () => {
    await expect(cards.first()).toBeVisible();
    await expect(page).toHaveURL(/^http:\/\/[^/]+\/$/);
    await expect(page.getByTestId('landing-headline')).toHaveCount(0);
    // The header's location bar names the chosen place.
    await expect(page.locator('header').getByText('Koramangala', { exact: true })).toBeVisible();
    const shown = Math.min(await cards.count(), 5);
    expect(shown).toBeGreaterThan(0);
    for (let i = 0; i < shown; i += 1) {
      const card = cards.nth(i);
      await expect(card.getByRole('heading', { level: 3 })).toHaveText(/\S/);
      await expect(card).toContainText(/\d+-\d+ MINS/);
      await expect(card).toContainText(/₹[\d,]+ FOR TWO/);
    }
  });

  await test.step('the userLocation cookie is set and survives a reload', async () => {
    const stored = await userLocationCookie(context);
    expect(stored, 'userLocation cookie').not.toBeNull();
    expect(stored.value).toMatchObject({ area: 'Koramangala', city: 'bangalore', lat: expect.any(Number), lng: expect.any(Number) });
    // The location cookie lives 365 days.
    const days = (stored.cookie.expires - Date.now() / 1000) / DAY_S;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThan(366);

    await page.reload();
    await expect(cards.first()).toBeVisible();
    await expect(page.getByTestId('landing-headline')).toHaveCount(0);
    expect((await userLocationCookie(context))?.value).toEqual(stored.value);
  });

  const restaurant = {};
  await test.step('open the first open restaurant: categories and dishes', async () => {
    const firstOpen = cards.and(page.locator('[data-open="true"]')).first();
    await expect(firstOpen).toBeVisible();
    restaurant.id = await firstOpen.getAttribute('data-restaurant-id');
    restaurant.name = (await firstOpen.getByRole('heading', { level: 3 }).innerText()).trim();
    await firstOpen.getByRole('link').click();

    await expect(page).toHaveURL(new RegExp(`/restaurants/[^/]+-${restaurant.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: restaurant.name, exact: true })).toBeVisible();
    const categories = page.getByRole('navigation', { name: 'Menu categories' }).getByRole('button');
    await expect(categories.first()).toBeVisible();
    await expect(page.getByTestId('menu-item').first()).toBeVisible();
  });

  const dish = {};
  await test.step('ADD a dish that needs no customisation', async () => {
    const plain = page
      .getByTestId('menu-item')
      .filter({ hasNotText: 'Customisable' })
      .filter({ has: page.locator('[data-testid="add-button"]:enabled') })
      .first();
    await expect(plain, 'a dish without customisation that can be added').toBeVisible();
    dish.id = await plain.getAttribute('data-item-id');
    dish.name = await plain.getAttribute('aria-label');
    dish.priceText = (await plain.getByTestId('item-price').innerText()).trim();
    dish.paise = paise(dish.priceText);
    expect(dish.paise).toBeGreaterThan(0);

    // The same dish can be listed twice (Recommended and its category); follow it by id.
    const card = page.locator(`[data-testid="menu-item"][data-item-id="${dish.id}"]`).first();
    await expect(page.getByTestId('cart-badge')).toHaveText('0');
    await card.getByTestId('add-button').click();
    await expect(card.getByTestId('stepper-quantity')).toHaveText('1');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByTestId('cart-badge')).toHaveText('1');
  });

  await test.step('the cart page has the dish and its subtotal in rupees', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Cart, 1 item' }).click();
    await expect(page).toHaveURL(/\/cart$/);
    const expectCart = async () => {
      const cartPage = page.getByRole('region', { name: 'Cart', exact: true });
      await expect(cartPage.getByRole('heading', { level: 1, name: restaurant.name, exact: true })).toBeVisible();
      const line = cartPage.getByRole('list', { name: 'Items in cart' }).getByRole('listitem');
      await expect(line).toHaveCount(1);
      await expect(line).toContainText(dish.name);
      await expect(line.getByRole('group', { name: `Quantity of ${dish.name}` })).toContainText('1');
      await expect(line).toContainText(dish.priceText);
      await expect(cartPage.getByTestId('cart-item-total')).toHaveText(dish.priceText);
      await expect(page.getByTestId('cart-badge')).toHaveText('1');
    };
    await expectCart();
    // The cart lives on the server: a fresh page load shows the same.
    await page.reload();
    await expectCart();
  });

  expect(uncaught, 'uncaught errors in the page').toEqual([]);
});
