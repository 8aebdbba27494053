import { carryFirstReply, fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import * as cartStore from '@tiffin/cart-store';
import { on, type MenuItem, type MenuResponse } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeCart } from '../test/fake-cart-store';
import { MenuPage } from './MenuPage';

vi.mock('@tiffin/cart-store', () => import('../test/fake-cart-store'));

const location = { lat: 12.9352, lng: 77.6245, address: 'Koramangala', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

const plain = fixtures.menuItem({ id: '1', name: 'Chicken Dum Biryani', price: 29900, defaultPrice: 24900, finalPrice: 24900, spiceLevel: 'VERYSPICY' });
const paneer = fixtures.menuItem({ id: '2', name: 'Paneer Tikka (Dry)', vegType: 'VEG', isVeg: 1, ribbon: null, price: 19900, defaultPrice: 19900, finalPrice: 19900 });
const soldOut = fixtures.menuItem({ id: '3', name: 'Mutton Biryani', inStock: 0, ribbon: null });
const thali: MenuItem = fixtures.menuItem({
  id: '4',
  name: 'Veg Thali',
  vegType: 'VEG',
  isVeg: 1,
  ribbon: null,
  price: 20000,
  defaultPrice: 20000,
  finalPrice: 20000,
  description: 'A generous thali with dal, two sabzis, rice, rotis, salad, pickle and a sweet of the day, served hot with ghee and papad on the side, and a glass of chaas to finish.',
  variantsV2: {
    variant_groups: [
      {
        group_id: 'size',
        name: 'Size',
        variations: [
          { id: 'regular', name: 'Regular', price: 0, default: 1, inStock: 1, isVeg: 1 },
          { id: 'large', name: 'Large', price: 5000, default: 0, inStock: 1, isVeg: 1 },
        ],
      },
    ],
    pricing_models: [],
  },
  addons: [
    {
      group_id: 'sweet',
      group_name: 'Sweets',
      minAddons: 1,
      maxAddons: 1,
      maxFreeAddons: 0,
      choices: [
        { id: 'gulab', name: 'Gulab Jamun', price: 3000, inStock: 1, isVeg: 1 },
        { id: 'kheer', name: 'Kheer', price: 4000, inStock: 1, isVeg: 1 },
      ],
    },
  ],
});

function menu(overrides: Partial<MenuResponse['restaurant']> = {}): MenuResponse {
  return {
    restaurant: fixtures.menuRestaurant(overrides),
    menu: {
      widgets: [
        { type: 'RECOMMENDED', id: 'recommended', name: 'Recommended', entities: [{ id: '1' }, { id: '4' }], widgets: [] },
        {
          type: 'CATEGORY',
          id: 'c-1',
          name: 'Mains',
          entities: [{ id: '1' }, { id: '3' }],
          widgets: [{ type: 'CATEGORY', id: 'c-1-1', name: 'Starters', entities: [{ id: '2' }], widgets: [] }],
        },
      ],
      items: { '1': plain, '2': paneer, '3': soldOut, '4': thali },
      itemCount: 4,
    },
  };
}

const itemCard = (name: string) => screen.getAllByTestId('menu-item').find((el) => el.getAttribute('aria-label') === name)!;
const names = () => screen.queryAllByTestId('menu-item').map((el) => el.getAttribute('aria-label'));

async function renderMenu(data: MenuResponse = menu()) {
  const fetch = installFakeEdge({ '/api/menu/pl': data });
  render(<MenuPage restaurantId="1042" location={location} />);
  await screen.findByRole('heading', { level: 1, name: data.restaurant.name });
  return fetch;
}

beforeEach(() => {
  resetFakeCart();
  window.localStorage.clear();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('menu page', () => {
  it('asks menu/pl for the restaurant at the stored location and shows the header', async () => {
    const fetch = await renderMenu();
    expect(String(fetch.mock.calls[0]![0])).toBe('/api/menu/pl?restaurantId=1042&lat=12.9352&lng=77.6245');
    const header = screen.getByRole('banner');
    expect(header.textContent).toContain('Biryani, Andhra');
    expect(header.textContent).toContain('Koramangala, 5th Block');
    expect(header.textContent).toContain('★ 4.3');
    expect(header.textContent).toContain('25-35 MINS');
    expect(header.textContent).toContain('₹400 FOR TWO');
    expect(within(header).getByRole('list', { name: 'Offers' }).textContent).toContain('20% OFF UPTO ₹100');
    await waitFor(() => expect(document.title).toBe('Order food online from Meghana Biryani House, Koramangala | Tiffin'));
  });

  it('lists sections in order with sub-categories, and a jump list', async () => {
    await renderMenu();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Recommended (2)', 'Mains (3)']);
    expect(screen.getByRole('heading', { level: 3, name: 'Starters (1)' })).toBeTruthy();
    expect(within(screen.getByRole('navigation', { name: 'Menu categories' })).getAllByRole('button').map((b) => b.textContent)).toEqual(['Recommended', 'Mains']);
  });

  it('shows marks, price with the struck-out original, ribbon, spice, Customisable and Unavailable', async () => {
    await renderMenu();
    const biryani = itemCard('Chicken Dum Biryani');
    expect(within(biryani).getByRole('img', { name: 'Non-veg' })).toBeTruthy();
    expect(within(biryani).getByRole('img', { name: 'Very spicy' }).querySelectorAll('svg')).toHaveLength(2);
    expect(within(biryani).getByText('₹249')).toBeTruthy();
    expect(within(biryani).getByText('₹299').tagName).toBe('S');
    expect(biryani.textContent).toContain('Bestseller');

    expect(within(itemCard('Paneer Tikka (Dry)')).queryByText('₹199')).toBeTruthy();
    expect(itemCard('Paneer Tikka (Dry)').querySelector('s')).toBeNull();
    expect(within(itemCard('Veg Thali')).getByText('Customisable')).toBeTruthy();

    const mutton = itemCard('Mutton Biryani');
    expect(mutton.textContent).toContain('Unavailable');
    expect((within(mutton).getByTestId('add-button') as HTMLButtonElement).disabled).toBe(true);
  });

  it("clamps a long description behind 'more'", async () => {
    await renderMenu();
    const thaliCard = itemCard('Veg Thali');
    expect(thaliCard.querySelector('.disc-item__description--clamped')).toBeTruthy();
    fireEvent.click(within(thaliCard).getAllByRole('button', { name: /more/ })[0]!);
    expect(thaliCard.querySelector('.disc-item__description--clamped')).toBeNull();
  });

  it('filters with the in-menu search, safely for special characters', async () => {
    await renderMenu();
    fireEvent.change(screen.getByTestId('menu-search'), { target: { value: 'dum chick' } });
    expect(names()).toEqual(['Chicken Dum Biryani', 'Chicken Dum Biryani']);
    fireEvent.change(screen.getByTestId('menu-search'), { target: { value: '(dry' } });
    expect(names()).toEqual(['Paneer Tikka (Dry)']);
    fireEvent.change(screen.getByTestId('menu-search'), { target: { value: '.*' } });
    expect(names()).toEqual([]);
    expect(screen.getByRole('status').textContent).toBe('No results found for ".*". Try another dish name.');
  });

  it('remembers the veg-only toggle in local storage', async () => {
    await renderMenu();
    fireEvent.click(screen.getByRole('switch', { name: 'Veg only' }));
    expect(names()).toEqual(['Veg Thali', 'Paneer Tikka (Dry)']);
    expect(window.localStorage.getItem('tfn_dweb_vegOnly')).toBe('true');
    cleanup();

    await renderMenu();
    expect(screen.getByRole('switch', { name: 'Veg only' }).getAttribute('aria-checked')).toBe('true');
    expect(names()).toEqual(['Veg Thali', 'Paneer Tikka (Dry)']);
  });
});

describe('menu cart controls', () => {
  it('ADD puts a plain dish in the cart, then shows a stepper whose − and + change the line', async () => {
    await renderMenu();
    const card = () => itemCard('Paneer Tikka (Dry)');

    fireEvent.click(within(card()).getByTestId('add-button'));

    expect(cartStore.addItem).toHaveBeenCalledWith('1042', { menu_item_id: '2', quantity: 1 }, expect.objectContaining({ item: expect.objectContaining({ name: 'Paneer Tikka (Dry)', unitPrice: 19900 }) }));
    await waitFor(() => expect(within(card()).getByTestId('stepper-quantity').textContent).toBe('1'));

    fireEvent.click(within(card()).getByTestId('stepper-increment'));
    await waitFor(() => expect(within(card()).getByTestId('stepper-quantity').textContent).toBe('2'));
    fireEvent.click(within(card()).getByTestId('stepper-decrement'));
    expect(cartStore.setLineQuantity).toHaveBeenCalledWith('2', 1);
    await waitFor(() => expect(within(card()).getByTestId('stepper-quantity').textContent).toBe('1'));
    fireEvent.click(within(card()).getByTestId('stepper-decrement'));
    await waitFor(() => expect(within(card()).getByTestId('add-button')).toBeTruthy());
  });

  it('opens the customisation dialog for a customisable dish and adds the chosen selection', async () => {
    await renderMenu();
    fireEvent.click(within(itemCard('Veg Thali')).getByTestId('add-button'));
    const dialog = await screen.findByTestId('customisation-dialog');
    expect(within(dialog).getByRole('radio', { name: /Regular/ })).toHaveProperty('checked', true);
    expect(within(dialog).getByTestId('customisation-total').textContent).toBe('Total ₹200');

    // Variants and add-ons: two steps.
    expect(within(dialog).getByTestId('customisation-step').textContent).toBe('Step 1/2');
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    fireEvent.click(within(dialog).getByRole('radio', { name: /Large/ }));
    fireEvent.click(within(dialog).getByTestId('customisation-continue'));
    expect(within(dialog).getByTestId('customisation-step').textContent).toBe('Step 2/2');
    expect(within(dialog).getByRole('group', { name: /Sweets/ }).textContent).toContain('(0/1 required)');

    fireEvent.click(within(dialog).getByTestId('customisation-add'));
    expect(within(dialog).getByRole('alert').textContent).toBe('You must select at least 1 Sweets');
    expect(cartStore.addItem).not.toHaveBeenCalled();

    // Back keeps the choices made on step 1.
    fireEvent.click(within(dialog).getByTestId('customisation-back'));
    expect(within(dialog).getByRole('radio', { name: /Large/ })).toHaveProperty('checked', true);
    fireEvent.click(within(dialog).getByTestId('customisation-continue'));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Kheer/ }));
    expect(within(dialog).getByRole('group', { name: /Sweets/ }).textContent).toContain('(1/1 required)');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Gulab Jamun/ }));
    expect(within(dialog).getByRole('alert').textContent).toBe('You can select a maximum of 1 Sweets.');
    expect(within(dialog).getByTestId('customisation-total').textContent).toBe('Total ₹290');

    fireEvent.click(within(dialog).getByTestId('customisation-add'));

    expect(cartStore.addItem).toHaveBeenCalledWith(
      '1042',
      { menu_item_id: '4', quantity: 1, variants: [{ group_id: 'size', variation_id: 'large' }], addons: [{ group_id: 'sweet', choice_id: 'kheer' }] },
      expect.objectContaining({ item: expect.objectContaining({ unitPrice: 29000 }) }),
    );
    await waitFor(() => expect(screen.queryByTestId('customisation-dialog')).toBeNull());
    await waitFor(() => expect(within(itemCard('Veg Thali')).getByTestId('stepper-quantity').textContent).toBe('1'));
  });

  it('asks before replacing another restaurant’s cart, and starts afresh on yes', async () => {
    resetFakeCart({ restaurant: { id: '77', name: 'Truffles' }, lines: [{ menu_item_id: '900', quantity: 1 }] });
    await renderMenu();

    fireEvent.click(within(itemCard('Paneer Tikka (Dry)')).getByTestId('add-button'));

    const dialog = await screen.findByTestId('replace-cart-dialog');
    expect(within(dialog).getByRole('heading').textContent).toBe('Items already in cart');
    expect(dialog.textContent).toContain('Your cart contains items from Truffles. Do you want to discard the selection and add items from this restaurant?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, start afresh' }));

    expect(cartStore.replaceCart).toHaveBeenCalledWith('1042', { menu_item_id: '2', quantity: 1 }, expect.anything());
    await waitFor(() => expect(within(itemCard('Paneer Tikka (Dry)')).getByTestId('stepper-quantity').textContent).toBe('1'));
    expect(screen.queryByTestId('replace-cart-dialog')).toBeNull();
  });

  it('keeps the other cart on No', async () => {
    resetFakeCart({ restaurant: { id: '77', name: 'Truffles' }, lines: [{ menu_item_id: '900', quantity: 1 }] });
    await renderMenu();
    fireEvent.click(within(itemCard('Paneer Tikka (Dry)')).getByTestId('add-button'));
    fireEvent.click(within(await screen.findByTestId('replace-cart-dialog')).getByRole('button', { name: 'No' }));
    expect(cartStore.replaceCart).not.toHaveBeenCalled();
    expect(screen.queryByTestId('replace-cart-dialog')).toBeNull();
  });

  it('does not toast a cart failure again (the store shows the server message) and keeps the page usable', async () => {
    vi.mocked(cartStore.addItem).mockRejectedValueOnce(Object.assign(new Error('Item(s) unavailable'), { statusCode: 8 }));
    const toasts: string[] = [];
    const off = on('toast:show', ({ text }) => toasts.push(text));
    await renderMenu();
    fireEvent.click(within(itemCard('Paneer Tikka (Dry)')).getByTestId('add-button'));
    await waitFor(() => expect(cartStore.addItem).toHaveBeenCalled());
    off();
    expect(toasts).toEqual([]);
    expect(within(itemCard('Paneer Tikka (Dry)')).getByTestId('add-button')).toBeTruthy();
  });

  it('tells the customer to use the cart when − is tapped on a dish with several customisations', async () => {
    resetFakeCart({
      restaurant: { id: '1042', name: 'Meghana Biryani House' },
      lines: [
        { menu_item_id: '4', quantity: 1, addons: [{ group_id: 'sweet', choice_id: 'kheer' }] },
        { menu_item_id: '4', quantity: 1, addons: [{ group_id: 'sweet', choice_id: 'gulab' }] },
      ],
    });
    const toasts: string[] = [];
    const off = on('toast:show', ({ text }) => toasts.push(text));
    await renderMenu();
    expect(within(itemCard('Veg Thali')).getByTestId('stepper-quantity').textContent).toBe('2');
    fireEvent.click(within(itemCard('Veg Thali')).getByTestId('stepper-decrement'));
    off();
    expect(toasts).toEqual(['This item has multiple customisations added. Remove the correct item from the cart.']);
    expect(cartStore.setLineQuantity).not.toHaveBeenCalled();
  });

  it('disables ADD and says so while the restaurant is closed', async () => {
    // As the edge sends a closed restaurant's header.
    await renderMenu(menu({ availability: { opened: false }, opened: false, deliveryState: 'CLOSED', deliveryStateText: 'Closed & not delivering', deliveryStateMessage: 'Restaurant is currently closed' }));
    expect(screen.getByTestId('restaurant-closed').textContent).toBe('Closed & not deliveringRestaurant is currently closed');
    expect(screen.getAllByTestId('add-button').every((b) => (b as HTMLButtonElement).disabled)).toBe(true);
  });
});

describe('menu failures', () => {
  it('shows not found with GO HOME for an unknown restaurant', async () => {
    installFakeEdge({ '/api/menu/pl': reply(404, 404, 'Restaurant not found') });
    const navigations: string[] = [];
    const off = on('route:navigate', ({ to }, event) => {
      navigations.push(to);
      event.preventDefault();
    });
    render(<MenuPage restaurantId="999" location={location} />);

    fireEvent.click(await screen.findByRole('button', { name: 'GO HOME' }));
    off();
    expect(screen.getByText("Uh-oh! Looks like the page you are trying to access, doesn't exist. Please start afresh.")).toBeTruthy();
    expect(navigations).toEqual(['/']);
  });

  it("shows 'We'll be back shortly' without retry when rate limited", async () => {
    installFakeEdge({ '/api/menu/pl': reply(429, 429, "We'll be back shortly") });
    render(<MenuPage restaurantId="1042" location={location} />);
    expect(await screen.findByText("We'll be back shortly")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });
});

describe('menu page that came with its menu', () => {
  const carry = (restaurantId = '1042') =>
    carryFirstReply({
      path: 'menu/pl',
      query: { restaurantId, lat: location.lat, lng: location.lng },
      page: `/restaurants/meghana-biryani-house-koramangala-${restaurantId}`,
      data: menu(),
    });
  let undo: () => void = () => {};
  afterEach(() => undo());

  it('shows it on the first render, complete, and asks for neither menu', () => {
    undo = carry();
    const fetch = installFakeEdge({});
    render(<MenuPage restaurantId="1042" location={location} />);

    expect(screen.getByRole('heading', { level: 1, name: 'Meghana Biryani House' })).toBeTruthy();
    expect(names()).toContain('Veg Thali');
    expect(screen.queryByLabelText('Loading menu')).toBeNull();
    expect(fetch.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/menu/'))).toEqual([]);
  });

  it('is not used for another restaurant', async () => {
    undo = carry('7');
    const fetch = installFakeEdge({ '/api/menu/pl': menu() });
    render(<MenuPage restaurantId="1042" location={location} />);
    expect(screen.getByLabelText('Loading menu')).toBeTruthy();
    await screen.findByRole('heading', { level: 1, name: 'Meghana Biryani House' });
    expect(fetch.mock.calls.map(([url]) => String(url))).toContain('/api/menu/pl?restaurantId=1042&lat=12.9352&lng=77.6245');
  });
});
