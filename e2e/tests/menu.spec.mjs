// The menu and the customisation modal against the real storefront: open a menu, filter
// veg, search, customise a dish with variants and add-ons (including the error for an empty
// required group), add it again with the same choices ("Repeat last": one line, quantity 2) and
// with different choices (a second line), and check the cart page shows the server's prices.
//
// The catalogue is generated, so the test asks the edge (the same API the page uses) for a
// restaurant and a dish with the right shape, then drives the page like a customer.
import { expect, test } from '@playwright/test';

const KORAMANGALA = { lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bengaluru, Karnataka, India', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

/** '₹249', '₹1,249', '₹249.50' → paise. */
function paise(text) {
  const match = /₹\s*([\d,]+)(?:\.(\d{2}))?/.exec(text);
  if (!match) throw new Error(`no rupee amount in "${text}"`);
  return Number(match[1].replaceAll(',', '')) * 100 + Number(match[2] ?? 0);
}

async function data(response) {
  expect(response.ok(), `${response.url()} → ${response.status()}`).toBe(true);
  const body = await response.json();
  expect(body.statusCode, body.statusMessage).toBe(0);
  return body.data;
}

const variantGroupsOf = (item) => (item.variantsV2?.variant_groups?.length ? item.variantsV2.variant_groups : (item.variants?.variant_groups ?? []));

/** Enough in-stock choices for every required group: paid ones first (free ones may be capped). */
function requiredPicks(item) {
  const picks = [];
  for (const group of item.addons ?? []) {
    if (group.minAddons <= 0) continue;
    const usable = group.choices.filter((c) => c.inStock === 1).sort((a, b) => b.price - a.price);
    const chosen = usable.slice(0, group.minAddons);
    const free = chosen.filter((c) => c.price === 0).length;
    if (chosen.length < group.minAddons || (group.maxFreeAddons > 0 && free > group.maxFreeAddons)) return null;
    picks.push({ group, choices: chosen });
  }
  return picks;
}

const inStockChoices = (group) => group.choices.filter((c) => c.inStock === 1).sort((a, b) => b.price - a.price);

/**
 * A dish with a variant group of two in-stock variations and add-ons (the required picks, or one
 * optional add-on), and a dish with a required add-on group (the same one when the catalogue has
 * such a dish).
 */
function candidatesOf(menu) {
  const items = Object.values(menu.items).filter((i) => i.inStock === 1);
  let variantDish = null;
  let requiredDish = null;
  for (const item of items) {
    const picks = requiredPicks(item);
    if (!picks) continue;
    const sizeGroup = variantGroupsOf(item).find((g) => g.variations.filter((v) => v.inStock === 1).length >= 2);
    if (sizeGroup && (item.addons ?? []).length > 0) {
      let allPicks = picks;
      if (allPicks.length === 0) {
        const group = item.addons.find((g) => inStockChoices(g).length > 0);
        if (!group) continue;
        allPicks = [{ group, choices: [inStockChoices(group)[0]] }];
      }
      const dish = { item, sizeGroup, picks: allPicks, required: picks.length > 0 };
      if (!variantDish || (dish.required && !variantDish.required)) variantDish = dish;
    }
    if (picks.length > 0 && !requiredDish) requiredDish = { item, sizeGroup: null, picks, required: true };
  }
  if (!variantDish || !requiredDish) return null;
  return { variantDish, requiredDish: variantDish.required ? null : requiredDish };
}

/** Every whitespace-separated word starts a word of the name, for checking results. */
function matches(name, query) {
  const lower = name.toLowerCase();
  const starts = [0];
  for (let i = 1; i < lower.length; i += 1) {
    const prev = lower[i - 1];
    const here = lower[i];
    if (/\s/.test(here)) continue;
    if (/\s/.test(prev) || (/[\p{L}\p{N}]/u.test(here) && !/[\p{L}\p{N}]/u.test(prev))) starts.push(i);
  }
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => starts.some((s) => lower.startsWith(word, s)));
}

test.use({ reducedMotion: 'reduce' });

test('menu: veg filter, search, customise, repeat last, different choices, cart prices', async ({ page, context, baseURL }) => {
  test.setTimeout(120_000);
  const uncaught = [];
  page.on('pageerror', (error) => uncaught.push(error.message));
  await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);

  const found = {};
  await test.step('find an open restaurant with a dish that has variants and a required add-on group', async () => {
    const listing = await data(await page.request.get(`/api/restaurants/list/v5?lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}&page_type=DESKTOP_WEB_LISTING&offset=0`));
    for (const { data: restaurant } of listing.cards) {
      const menuPage = await data(await page.request.get(`/api/menu/pl?restaurantId=${restaurant.id}&lat=${KORAMANGALA.lat}&lng=${KORAMANGALA.lng}`));
      if ((menuPage.restaurant.deliveryState ?? 'OPEN') !== 'OPEN') continue;
      const items = Object.values(menuPage.menu.items);
      if (!items.some((i) => i.vegType === 'VEG') || !items.some((i) => i.vegType !== 'VEG')) continue;
      const candidates = candidatesOf(menuPage.menu);
      if (!candidates) continue;
      Object.assign(found, { restaurant: menuPage.restaurant, menu: menuPage.menu, ...candidates });
      break;
    }
    expect(found.variantDish, 'a restaurant near Koramangala with dishes with variants, add-ons and a required group').toBeTruthy();
  });
  const { restaurant, menu, variantDish, requiredDish } = found;
  const { item, sizeGroup } = variantDish;
  const cards = page.getByTestId('menu-item');
  const dishCard = page.locator(`[data-testid="menu-item"][data-item-id="${item.id}"]`).first();

  await test.step('open the menu', async () => {
    const response = await page.goto(`/menu/${restaurant.id}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: restaurant.name, exact: true })).toBeVisible();
    await expect(page.getByTestId('menu-delivery-time')).toHaveText(/^\d+-\d+ MINS$/);
    await expect(cards.first()).toBeVisible();
  });

  await test.step('veg only shows veg dishes, and is remembered', async () => {
    const toggle = page.getByTestId('veg-only-toggle');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    const vegIds = new Set(Object.values(menu.items).filter((i) => i.vegType === 'VEG').map((i) => i.id));
    await expect(cards.first()).toBeVisible();
    const shown = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-item-id')));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((id) => !vegIds.has(id)), 'non-veg dishes shown with veg only').toEqual([]);
    expect(await page.evaluate(() => window.localStorage.getItem('tfn_dweb_vegOnly'))).toBe('true');

    await page.reload();
    await expect(page.getByTestId('veg-only-toggle')).toHaveAttribute('aria-checked', 'true');
    await page.getByTestId('veg-only-toggle').click();
    await expect(page.getByTestId('veg-only-toggle')).toHaveAttribute('aria-checked', 'false');
    await expect(dishCard).toBeVisible();
  });

  await test.step('search: every word must start a word of the name; special characters are plain', async () => {
    const search = page.getByTestId('menu-search');
    const words = item.name.split(/\s+/).filter((w) => /^[\p{L}\p{N}]/u.test(w));
    const query = words
      .slice(0, 2)
      .map((w) => w.slice(0, 3).toUpperCase())
      .join(' ');
    await search.fill(query);
    await expect(dishCard).toBeVisible();
    const names = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
    expect(names.filter((name) => !matches(name, query)), `results for "${query}"`).toEqual([]);

    await search.fill('zzqx (.*');
    await expect(page.getByTestId('menu-no-results')).toHaveText('No results found for "zzqx (.*". Try another dish name.');
    await expect(cards).toHaveCount(0);
    await search.fill('');
    await expect(dishCard).toBeVisible();
  });

  const variations = sizeGroup.variations.filter((v) => v.inStock === 1);
  const dialog = page.getByTestId('customisation-dialog');
  const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  /**
   * In the open modal: picks `variation` (if any), moves to the add-ons when there are two steps,
   * optionally checks the empty required group is refused, ticks the picks and adds. Returns the
   * modal's running total for one unit.
   */
  async function customise(dish, variation, { checkEmptyError = false } = {}) {
    await expect(dialog).toBeVisible();
    const twoSteps = variantGroupsOf(dish.item).length > 0 && (dish.item.addons ?? []).length > 0;
    if (variation) {
      await dialog.getByRole('group', { name: dish.sizeGroup.name, exact: true }).getByRole('radio', { name: new RegExp(escape(variation.name)) }).check();
    }
    if (twoSteps) {
      await expect(dialog.getByTestId('customisation-step')).toHaveText('Step 1/2');
      await dialog.getByTestId('customisation-continue').click();
      await expect(dialog.getByTestId('customisation-step')).toHaveText('Step 2/2');
    } else {
      await expect(dialog.getByTestId('customisation-step')).toHaveCount(0);
    }
    if (checkEmptyError) {
      const first = dish.picks[0].group;
      const fieldset = dialog.locator(`fieldset[data-group-id="${first.group_id}"]`);
      await expect(fieldset.locator('legend')).toContainText(first.maxAddons === first.minAddons ? `(0/${first.minAddons} required)` : `(atleast ${first.minAddons})`);
      await dialog.getByTestId('customisation-add').click();
      await expect(fieldset.getByTestId('customisation-error')).toHaveText(`You must select at least ${first.minAddons} ${first.group_name}`);
      await expect(dialog).toBeVisible();
    }
    for (const { group, choices } of dish.picks) {
      const fieldset = dialog.locator(`fieldset[data-group-id="${group.group_id}"]`);
      for (const choice of choices) await fieldset.getByRole('checkbox', { name: new RegExp(escape(choice.name)) }).check();
    }
    const total = paise(await dialog.getByTestId('customisation-total').innerText());
    await dialog.getByTestId('customisation-add').click();
    await expect(dialog).toHaveCount(0);
    return total;
  }

  const totals = {};
  let units = 0;
  if (requiredDish) {
    await test.step('a dish with a required add-on group: adding it empty is refused with the spec message', async () => {
      const card = page.locator(`[data-testid="menu-item"][data-item-id="${requiredDish.item.id}"]`).first();
      await card.getByTestId('add-button').click();
      await customise(requiredDish, null, { checkEmptyError: true });
      await expect(card.getByTestId('stepper-quantity')).toHaveText('1');
      units += 1;
    });
  }

  await test.step('customise a dish with variants and add-ons (two steps), then add it', async () => {
    await dishCard.getByTestId('add-button').click();
    totals.first = await customise(variantDish, variations[0], { checkEmptyError: variantDish.required });
    await expect(dishCard.getByTestId('stepper-quantity')).toHaveText('1');
  });

  await test.step('+ → "Repeat last" adds the same choices: still one line, quantity 2', async () => {
    await dishCard.getByTestId('stepper-increment').click();
    const sheet = page.getByTestId('repeat-last-dialog');
    await expect(sheet.getByRole('heading')).toHaveText('Repeat last used customisation?');
    await expect(sheet.getByTestId('repeat-summary')).toContainText(variations[0].name);
    await sheet.getByTestId('repeat-last').click();
    await expect(dishCard.getByTestId('stepper-quantity')).toHaveText('2');
    const cart = await data(await page.request.get('/api/cart'));
    expect(cart.cartItems.filter((l) => l.menu_item_id === item.id).map((l) => l.quantity)).toEqual([2]);
  });

  await test.step('+ → "I\'ll choose" with another variation makes a second line', async () => {
    await dishCard.getByTestId('stepper-increment').click();
    await page.getByTestId('repeat-last-dialog').getByTestId('repeat-choose').click();
    totals.second = await customise(variantDish, variations[1]);
    await expect(dishCard.getByTestId('stepper-quantity')).toHaveText('3');
  });

  await test.step('the cart page shows both lines at the server prices', async () => {
    const cart = await data(await page.request.get('/api/cart'));
    const lines = cart.cartItems.filter((l) => l.menu_item_id === item.id);
    expect(lines.map((l) => l.quantity).sort()).toEqual([1, 2]);
    const repeated = lines.find((l) => l.quantity === 2);
    const other = lines.find((l) => l.quantity === 1);
    // The modal's running total is what the server charges for one unit.
    expect(repeated.final_price).toBe(2 * totals.first);
    expect(other.final_price).toBe(totals.second);

    await page.goto('/cart');
    const cartPage = page.getByRole('region', { name: 'Cart', exact: true });
    await expect(cartPage.getByRole('heading', { level: 1, name: restaurant.name, exact: true })).toBeVisible();
    for (const line of lines) {
      const row = cartPage.locator(`li[data-cart-key="${line.cart_key}"]`);
      await expect(row).toContainText(item.name);
      await expect(row.getByRole('group', { name: `Quantity of ${item.name}` })).toContainText(String(line.quantity));
      expect(paise(await row.locator('.cart-line__price').innerText())).toBe(line.final_price);
    }
    await expect(page.getByTestId('cart-badge')).toHaveText(String(3 + units));
  });

  expect(uncaught, 'uncaught errors in the page').toEqual([]);
});
