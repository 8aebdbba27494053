/**
 * The menu page's flows against a fake edge and the fake cart store: the header's states,
 * offers and favourite, the jump menu, the no-results text, the quick → full paint, two-step
 * customisation with a server refusal, "Repeat last" vs "I'll choose", and V1 variants.
 */
import { ApiError } from '@tiffin/api-client';
import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import * as cartStore from '@tiffin/cart-store';
import { on, setCurrentUser, type User } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeCart } from '../test/fake-cart-store';
import { MenuPage } from './MenuPage';
import type { FullMenuResponse, MenuItemFull, MenuRestaurant } from './menu-types';

vi.mock('@tiffin/cart-store', () => import('../test/fake-cart-store'));

const location = { lat: 12.9352, lng: 77.6245, address: 'Koramangala', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

const user: User = {
  customer_id: '17',
  mobile: '9876543210',
  name: 'Asha',
  email: '',
  pendingEmail: '',
  emailVerified: false,
  optional_map: {},
  preferences: { sms: { orders: true, recommendations: true, reminders: false } },
};

const biryani: MenuItemFull = {
  ...fixtures.menuItem({ id: '1', name: 'Chicken Dum Biryani', price: 29900, defaultPrice: 24900, finalPrice: 24900 }),
  customisable: true,
  variantsV2: {
    variant_groups: [
      {
        group_id: 'size',
        name: 'Size',
        variations: [
          { id: 'half', name: 'Half', price: 0, default: 1, inStock: 1, isVeg: 0 },
          { id: 'full', name: 'Full', price: 10000, default: 0, inStock: 1, isVeg: 0 },
        ],
      },
    ],
    pricing_models: [
      { variations: [{ group_id: 'size', variation_id: 'half' }], price: 24900 },
      { variations: [{ group_id: 'size', variation_id: 'full' }], price: 39900 },
    ],
  },
  addons: [
    {
      group_id: 'extras',
      group_name: 'Extras',
      minAddons: 1,
      maxAddons: 2,
      maxFreeAddons: 0,
      choices: [
        { id: 'raita', name: 'Raita', price: 3000, inStock: 1, isVeg: 1 },
        { id: 'salan', name: 'Salan', price: 4000, inStock: 1, isVeg: 1 },
        { id: 'egg', name: 'Boiled egg', price: 2000, inStock: 0, isVeg: 0 },
      ],
    },
  ],
};

const momos: MenuItemFull = {
  ...fixtures.menuItem({ id: '2', name: 'Veg Momos', vegType: 'VEG', isVeg: 1, ribbon: null, price: 12000, defaultPrice: 12000, finalPrice: 12000, variantsV2: null }),
  customisable: true,
  variants: {
    variant_groups: [
      {
        group_id: 'pcs',
        name: 'Pieces',
        variations: [
          { id: 'p6', name: '6 pcs', price: 0, default: 1, inStock: 1, isVeg: 1 },
          { id: 'p12', name: '12 pcs', price: 9000, default: 0, inStock: 1, isVeg: 1 },
        ],
      },
    ],
  },
};

const kheer: MenuItemFull = {
  ...fixtures.menuItem({ id: '3', name: 'Kheer', vegType: 'VEG', isVeg: 1, ribbon: null, inStock: 0 }),
  outOfStockMessage: 'This item is not available.',
  nextAvailableAtMessage: 'Next available at 7:00 PM',
};

function page(restaurant: Partial<MenuRestaurant> = {}, items: MenuItemFull[] = [biryani, momos, kheer]): FullMenuResponse {
  return {
    restaurant: fixtures.menuRestaurant(restaurant),
    menu: {
      widgets: [
        { type: 'CATEGORY', id: 'c-1', name: 'Biryani', entities: [{ id: '1' }], widgets: [] },
        { type: 'CATEGORY', id: 'c-2', name: 'Starters', entities: [], widgets: [{ type: 'CATEGORY', id: 'c-2-1', name: 'Momos', entities: [{ id: '2' }], widgets: [] }] },
        { type: 'CATEGORY', id: 'c-3', name: 'Desserts', entities: [{ id: '3' }], widgets: [] },
      ],
      items: Object.fromEntries(items.map((i) => [i.id, i])),
      itemCount: items.length,
    },
  };
}

const card = (name: string) => screen.getAllByTestId('menu-item').find((el) => el.getAttribute('aria-label') === name)!;

async function renderPage(data: FullMenuResponse = page(), extra: Record<string, unknown> = {}) {
  const fetch = installFakeEdge({ '/api/menu/pl': data, ...extra });
  render(<MenuPage restaurantId={data.restaurant.id} location={location} />);
  await screen.findByRole('heading', { level: 1, name: data.restaurant.name });
  return fetch;
}

function collect<K extends 'toast:show' | 'auth:open'>(name: K) {
  const seen: unknown[] = [];
  const off = on(name, (detail) => seen.push(detail));
  return { seen, off };
}

beforeEach(() => {
  resetFakeCart();
  window.localStorage.clear();
  vi.mocked(cartStore.addItem).mockClear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setCurrentUser(null);
});

describe('restaurant header', () => {
  it('shows rating count, distance, fee message and the offers strip with a copyable coupon code', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await renderPage(
      page({
        feeDetails: { message: '2.4 kms | Delivery fee will apply', icon: 'delivery' },
        offers: [{ offerId: 'o1', header: '20% OFF UPTO ₹100', couponCode: 'TIFFIN20', description: 'Use TIFFIN20 | above ₹249' }],
      }),
    );
    const header = screen.getByRole('banner');
    expect(within(header).getByTestId('menu-rating').textContent).toBe('★ 4.31K+ ratings');
    expect(within(header).getByTestId('menu-distance').textContent).toBe(', 2.4 km');
    expect(within(header).getByTestId('menu-delivery-time').textContent).toBe('25-35 MINS');
    expect(within(header).getByTestId('menu-fee').textContent).toBe('2.4 kms | Delivery fee will apply');
    expect(within(header).getByTestId('coupon-code').textContent).toBe('TIFFIN20');
    fireEvent.click(within(header).getByRole('button', { name: 'Copy coupon code TIFFIN20' }));
    expect(writeText).toHaveBeenCalledWith('TIFFIN20');
    await waitFor(() => expect(within(header).getByRole('button', { name: 'Copy coupon code TIFFIN20' }).textContent).toBe('Copied'));
  });

  it("shows '--' for a restaurant without ratings", async () => {
    await renderPage(page({ avgRating: null, avgRatingString: '--', totalRatingsString: '' }));
    expect(screen.getByTestId('menu-rating').textContent).toBe('★ ----');
  });

  it.each([
    [{ deliveryState: 'UNSERVICEABLE', deliveryStateText: 'Does not deliver', deliveryStateMessage: 'Sorry, this restaurant does not deliver to this address', unserviceable: true }, 'Does not deliverSorry, this restaurant does not deliver to this address'],
    [{ deliveryState: 'CLOSED', deliveryStateText: 'Closed & not delivering', deliveryStateMessage: 'Restaurant is currently closed', opened: false }, 'Closed & not deliveringRestaurant is currently closed'],
    [{ deliveryState: '', tmpClosed: true }, 'Currently not deliveringRestaurant is currently closed'],
  ] as Array<[Partial<MenuRestaurant>, string]>)('says why nothing can be ordered (%o) and disables ADD', async (state, text) => {
    await renderPage(page(state));
    expect(screen.getByTestId('restaurant-closed').textContent).toBe(text);
    expect(screen.getAllByTestId('add-button').every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
  });

  it("links the collections panel to the restaurant's cuisines' listing pages", async () => {
    await renderPage(page());
    const toggle = screen.getByRole('button', { name: 'Collections' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    const links = within(screen.getByRole('list', { name: /Collections of/ })).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Biryani restaurants near you', '/biryani-restaurants-near-me'],
      ['Andhra restaurants near you', '/andhra-restaurants-near-me'],
    ]);
  });
});

describe('favourite', () => {
  it('opens the auth sidebar for a visitor, without a call', async () => {
    const fetch = await renderPage();
    const auth = collect('auth:open');
    fireEvent.click(screen.getByTestId('favourite-toggle'));
    auth.off();
    expect(auth.seen).toEqual([{ mode: 'login' }]);
    expect(fetch.mock.calls.some(([url]) => String(url).includes('misc/favorite'))).toBe(false);
  });

  it('toggles for a signed-in customer with POST misc/favorite', async () => {
    setCurrentUser(user);
    const fetch = await renderPage(page(), { '/api/misc/favorite': { restaurantId: '1042', favourite: true } });
    const heart = screen.getByTestId('favourite-toggle');
    expect(heart.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(heart);
    await waitFor(() => expect(heart.getAttribute('aria-pressed')).toBe('true'));
    const call = fetch.mock.calls.find(([url]) => String(url) === '/api/misc/favorite')!;
    expect(JSON.parse(String(call[1]?.body))).toMatchObject({ restaurantId: '1042', favourite: true });
  });

  it("undoes a failed toggle and toasts 'Unable to add {0} to your favourites'", async () => {
    setCurrentUser(user);
    await renderPage(page(), { '/api/misc/favorite': reply(503, 777, "Something's broken") });
    const toasts = collect('toast:show');
    fireEvent.click(screen.getByTestId('favourite-toggle'));
    await waitFor(() => expect(toasts.seen).toHaveLength(1));
    toasts.off();
    expect((toasts.seen[0] as { text: string }).text).toBe('Unable to add Meghana Biryani House to your favourites');
    expect(screen.getByTestId('favourite-toggle').getAttribute('aria-pressed')).toBe('false');
  });

  it("says 'Unable to remove {0} from your favourites' when un-favouriting fails", async () => {
    setCurrentUser(user);
    await renderPage(page({ favourite: true }), { '/api/misc/favorite': reply(500, 1, 'Oops! Something went wrong.') });
    const toasts = collect('toast:show');
    fireEvent.click(screen.getByTestId('favourite-toggle'));
    await waitFor(() => expect(toasts.seen).toHaveLength(1));
    toasts.off();
    expect((toasts.seen[0] as { text: string }).text).toBe('Unable to remove Meghana Biryani House from your favourites');
    expect(screen.getByTestId('favourite-toggle').getAttribute('aria-pressed')).toBe('true');
  });
});

describe('browsing', () => {
  it('lists categories with counts behind "Browse menu" and scrolls to the one picked', async () => {
    await renderPage();
    const scrolled: string[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this.id);
    };
    fireEvent.click(screen.getByTestId('browse-menu'));
    const list = screen.getByTestId('browse-menu-list');
    expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual(['Biryani1', 'Starters1', 'Desserts1']);
    fireEvent.click(within(list).getByRole('button', { name: /Starters/ }));
    expect(scrolled).toEqual(['disc-menu-section-c-2']);
    expect(screen.queryByTestId('browse-menu-list')).toBeNull();
  });

  it('shows the next-available message on an out-of-stock dish', async () => {
    await renderPage();
    expect(within(card('Kheer')).getByTestId('item-unavailable').textContent).toBe('UnavailableNext available at 7:00 PM');
  });

  it('says no results were found for a search that matches nothing, including regex characters', async () => {
    await renderPage();
    fireEvent.change(screen.getByTestId('menu-search'), { target: { value: 'biryani.*' } });
    expect(screen.getByTestId('menu-no-results').textContent).toBe('No results found for "biryani.*". Try another dish name.');
    fireEvent.change(screen.getByTestId('menu-search'), { target: { value: 'dum chi' } });
    expect(screen.queryAllByTestId('menu-item').map((el) => el.getAttribute('aria-label'))).toEqual(['Chicken Dum Biryani']);
  });

  it('paints menu/quick first and waits for menu/pl before opening the customisation modal', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const full = page();
    const quickItems = Object.fromEntries(
      Object.entries(full.menu.items).map(([id, item]) => {
        const { addons: _a, variantsV2: _v, variants: _v1, ...rest } = item;
        return [id, rest];
      }),
    );
    const envelope = (data: unknown) =>
      new Response(JSON.stringify({ statusCode: 0, statusMessage: 'done successfully', data }), { status: 200, headers: { 'content-type': 'application/json' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const path = new URL(input, 'http://localhost').pathname;
        if (path === '/api/menu/quick') return envelope({ ...full, menu: { ...full.menu, items: quickItems } });
        if (path === '/api/menu/pl') {
          await gate;
          return envelope(full);
        }
        return envelope(null);
      }),
    );
    render(<MenuPage restaurantId="1042" location={location} />);
    await screen.findByRole('heading', { level: 1, name: 'Meghana Biryani House' });
    expect(within(card('Chicken Dum Biryani')).getByText('Customisable')).toBeTruthy();
    fireEvent.click(within(card('Chicken Dum Biryani')).getByTestId('add-button'));
    expect(screen.queryByTestId('customisation-dialog')).toBeNull();
    await act(async () => release());
    expect(await screen.findByTestId('customisation-dialog')).toBeTruthy();
  });

  it('never shows the menu of another restaurant than the route asks for', async () => {
    installFakeEdge({ '/api/menu/pl': page({ id: '999', name: 'Some Other Place' }) });
    render(<MenuPage restaurantId="1042" location={location} />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByLabelText('Loading menu')).toBeTruthy();
    expect(screen.queryByText('Some Other Place')).toBeNull();
  });
});

describe('customisation', () => {
  async function customiseBiryani(options: { size?: 'Half' | 'Full'; extras: string[] }) {
    const dialog = await screen.findByTestId('customisation-dialog');
    if (options.size) fireEvent.click(within(dialog).getByRole('radio', { name: new RegExp(options.size) }));
    fireEvent.click(within(dialog).getByTestId('customisation-continue'));
    for (const extra of options.extras) fireEvent.click(within(dialog).getByRole('checkbox', { name: new RegExp(extra) }));
    return dialog;
  }

  it('prices by the pricing model, disables out-of-stock choices, and runs the total', async () => {
    await renderPage();
    fireEvent.click(within(card('Chicken Dum Biryani')).getByTestId('add-button'));
    const dialog = await customiseBiryani({ size: 'Full', extras: ['Raita'] });
    expect(within(dialog).getByTestId('customisation-total').textContent).toBe('Total ₹429');
    expect(within(dialog).getByRole('checkbox', { name: /Boiled egg/ })).toHaveProperty('disabled', true);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Salan/ }));
    expect(within(dialog).getByTestId('customisation-total').textContent).toBe('Total ₹469');
  });

  it('shows the required-group message under its group and scrolls that group into view', async () => {
    await renderPage();
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    fireEvent.click(within(card('Chicken Dum Biryani')).getByTestId('add-button'));
    const dialog = await customiseBiryani({ extras: [] });
    fireEvent.click(within(dialog).getByTestId('customisation-add'));
    const group = within(dialog).getByRole('group', { name: /Extras/ });
    expect(within(group).getByRole('alert').textContent).toBe('You must select at least 1 Extras');
    expect(group.textContent).toContain('(atleast 1)');
    await waitFor(() => expect(scrolled).toContain(group));
    expect(cartStore.addItem).not.toHaveBeenCalled();
  });

  it('keeps the modal open when the cart refuses the line (the store toasts the message)', async () => {
    vi.mocked(cartStore.addItem).mockRejectedValueOnce(
      new ApiError({ kind: 'http', reply: { statusCode: 1, statusMessage: 'You must select at least 1 Extras', data: null } }),
    );
    await renderPage();
    fireEvent.click(within(card('Chicken Dum Biryani')).getByTestId('add-button'));
    const dialog = await customiseBiryani({ extras: ['Raita'] });
    fireEvent.click(within(dialog).getByTestId('customisation-add'));
    await waitFor(() => expect(cartStore.addItem).toHaveBeenCalledOnce());
    await waitFor(() => expect(within(dialog).getByTestId('customisation-add')).toHaveProperty('disabled', false));
    expect(screen.getByTestId('customisation-dialog')).toBe(dialog);
  });

  it('"Repeat last" adds the same choices again (one line, quantity 2); "I\'ll choose" makes a second line', async () => {
    await renderPage();
    fireEvent.click(within(card('Chicken Dum Biryani')).getByTestId('add-button'));
    fireEvent.click(within(await customiseBiryani({ size: 'Full', extras: ['Raita'] })).getByTestId('customisation-add'));
    await waitFor(() => expect(within(card('Chicken Dum Biryani')).getByTestId('stepper-quantity').textContent).toBe('1'));

    fireEvent.click(within(card('Chicken Dum Biryani')).getByTestId('stepper-increment'));
    const sheet = await screen.findByTestId('repeat-last-dialog');
    expect(within(sheet).getByRole('heading').textContent).toBe('Repeat last used customisation?');
    expect(within(sheet).getByTestId('repeat-summary').textContent).toBe('Full, Raita');
    fireEvent.click(within(sheet).getByTestId('repeat-last'));
    await waitFor(() => expect(within(card('Chicken Dum Biryani')).getByTestId('stepper-quantity').textContent).toBe('2'));
    expect(cartStore.getCartSnapshot().cart?.cartItems.map((l) => [l.cart_key, l.quantity])).toEqual([['1|full|raita', 2]]);

    fireEvent.click(within(card('Chicken Dum Biryani')).getByTestId('stepper-increment'));
    fireEvent.click(within(await screen.findByTestId('repeat-last-dialog')).getByTestId('repeat-choose'));
    fireEvent.click(within(await customiseBiryani({ extras: ['Salan'] })).getByTestId('customisation-add'));
    await waitFor(() => expect(within(card('Chicken Dum Biryani')).getByTestId('stepper-quantity').textContent).toBe('3'));
    expect(cartStore.getCartSnapshot().cart?.cartItems.map((l) => [l.cart_key, l.quantity])).toEqual([
      ['1|full|raita', 2],
      ['1|half|salan', 1],
    ]);
  });

  it('customises a V1 item in one step with the variation price added', async () => {
    await renderPage();
    fireEvent.click(within(card('Veg Momos')).getByTestId('add-button'));
    const dialog = await screen.findByTestId('customisation-dialog');
    expect(within(dialog).queryByTestId('customisation-step')).toBeNull();
    fireEvent.click(within(dialog).getByRole('radio', { name: /12 pcs/ }));
    expect(within(dialog).getByTestId('customisation-total').textContent).toBe('Total ₹210');
    fireEvent.click(within(dialog).getByTestId('customisation-add'));
    await waitFor(() =>
      expect(cartStore.addItem).toHaveBeenCalledWith('1042', { menu_item_id: '2', quantity: 1, variants: [{ group_id: 'pcs', variation_id: 'p12' }], addons: [] }, expect.anything()),
    );
  });
});
