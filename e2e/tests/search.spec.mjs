// Search against the real storefront: without a location /search goes home; with one,
// typing a misspelt dish ("biriyani") suggests, Enter shows restaurants first, the Dishes tab
// lists biryanis whose ADD fills the cart and raises the cart tooltip, the search is remembered
// as recent, and a restaurant result opens its menu.
import { expect, test } from '@playwright/test';

const KORAMANGALA = { lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bengaluru, Karnataka, India', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

test('search: no location goes home; a typo finds biryani, ADD shows the cart tooltip, a result opens its menu', async ({ page, context, baseURL }) => {
  await test.step('without a location /search goes home', async () => {
    await page.goto('/search');
    await expect(page).toHaveURL(/\/$/);
  });

  await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);

  await test.step('the pre-search page shows popular cuisines', async () => {
    await page.goto('/search');
    await expect(page.getByTestId('popular-cuisines').getByRole('button').first()).toBeVisible();
  });

  await test.step('typing with a typo suggests biryani', async () => {
    await page.getByTestId('search-input').fill('biriyani');
    const suggestions = page.getByTestId('search-suggestion');
    await expect(suggestions.first()).toBeVisible();
    await expect(page.getByTestId('search-suggestions')).toContainText(/biryani/i);
  });

  await test.step('Enter shows the Restaurants tab first', async () => {
    await page.getByTestId('search-input').press('Enter');
    await expect(page.getByTestId('search-tab-RESTAURANT')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('restaurant-card').first()).toBeVisible();
  });

  await test.step('the Dishes tab lists biryanis; ADD puts one in the cart and the tooltip shows', async () => {
    await page.getByTestId('search-tab-DISH').click();
    const dishes = page.getByTestId('dish-result');
    await expect(dishes.first()).toBeVisible();
    for (const text of await dishes.locator('.disc-search__dish-name').allTextContents()) expect(text.toLowerCase()).toContain('biryani');
    // Pin the card by its dish id: once added, it no longer has an ADD button to be found by.
    const id = await dishes.filter({ has: page.getByTestId('add-button') }).first().getAttribute('data-dish-id');
    const plain = page.locator(`[data-testid="dish-result"][data-dish-id="${id}"]`);
    await plain.getByTestId('add-button').click();
    await expect(plain.getByTestId('stepper-quantity')).toHaveText('1');
    const tooltip = page.getByTestId('cart-tooltip');
    await expect(tooltip).toBeVisible();
    await expect(tooltip.getByRole('link', { name: 'VIEW CART' })).toHaveAttribute('href', '/cart');
  });

  await test.step('the search is remembered as recent', async () => {
    const recent = await page.evaluate(() => window.localStorage.getItem('tfn_dweb_recentSearches'));
    expect(JSON.parse(recent)).toEqual(['biriyani']);
  });

  await test.step('a restaurant result opens its menu', async () => {
    await page.getByTestId('search-tab-RESTAURANT').click();
    const card = page.getByTestId('restaurant-card').first();
    const name = (await card.locator('.disc-card__name').textContent()).trim();
    await card.getByRole('link').click();
    await expect(page).toHaveURL(/\/restaurants\/.+-\d+$/);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  });
});
