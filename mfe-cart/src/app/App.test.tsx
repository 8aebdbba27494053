import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import * as cartStore from '@tiffin/cart-store';
import { on, type Cart } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json';
import App from './App';
import HeaderCart from './HeaderCart';

// The real store, with its setLineQuantity observed: the stepper must go through it.
vi.mock('@tiffin/cart-store', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@tiffin/cart-store')>();
  return { ...actual, setLineQuantity: vi.fn(actual.setLineQuantity) };
});

const route = { id: 'cart', pageType: 'CART' as const, params: {} };

afterEach(() => {
  cleanup();
  cartStore.resetCart();
  vi.unstubAllGlobals();
});

/** A cart of one line (the fixture's, with overrides), totals consistent with it. */
function cartWith(line: Partial<Cart['cartItems'][number]>, extra: Partial<Cart> = {}): Cart {
  const base = fixtures.cart();
  const item = { ...base.cartItems[0]!, ...line };
  return { ...base, cartItems: [item], cartItemsCount: item.quantity, item_total: item.final_price, ...extra };
}

describe('cart page', () => {
  it('shows the restaurant, lines, item total, the checkout note and link, and announces the count', async () => {
    installFakeEdge({ '/api/cart': fixtures.cart() });
    const counts: number[] = [];
    const off = on('cart:updated', ({ count }) => counts.push(count));
    const { container } = render(<App route={route} path="/cart" />);

    expect(await screen.findByRole('heading', { name: 'Meghana Biryani House' })).toBeTruthy();
    off();
    expect(screen.getByText('Koramangala')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Meghana Biryani House' }).getAttribute('src')).toBe('/images/restaurant-1042?w=100&h=100');
    const lines = screen.getByRole('list', { name: 'Items in cart' });
    expect(lines.textContent).toContain('Chicken Dum Biryani');
    expect(lines.textContent).toContain('Half, Raita');
    expect(within(lines).getByRole('img', { name: 'Non-veg' })).toBeTruthy();
    expect(within(lines).getByRole('group', { name: 'Quantity of Chicken Dum Biryani' }).textContent).toContain('2');
    expect(screen.getByTestId('cart-item-total').textContent).toBe('₹558');
    expect(screen.getByText('Delivery fee, taxes and any coupon are added at checkout.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Proceed to checkout' }).getAttribute('href')).toBe('/checkout');
    expect(counts).toEqual([2]);
    expect(container.querySelector('[data-mfe="mfe-cart"]')?.getAttribute('data-mfe-version')).toBe(pkg.version);
  });

  it('shows prices in rupees from paise, exactly', async () => {
    installFakeEdge({ '/api/cart': cartWith({ quantity: 1, base_price: 24900, final_price: 24900 }) });
    render(<App route={route} path="/cart" />);
    const lines = await screen.findByRole('list', { name: 'Items in cart' });
    expect(lines.querySelector('.cart-line__price')?.textContent).toBe('₹249');
    expect(screen.getByTestId('cart-item-total').textContent).toBe('₹249');
  });

  it('keeps paise when a price is not whole rupees', async () => {
    installFakeEdge({ '/api/cart': cartWith({ quantity: 3, base_price: 12345, final_price: 37035 }) });
    render(<App route={route} path="/cart" />);
    const lines = await screen.findByRole('list', { name: 'Items in cart' });
    expect(lines.querySelector('.cart-line__price')?.textContent).toBe('₹370.35');
  });

  it('steps the quantity through the cart store and shows the server reply', async () => {
    let posted: unknown = null;
    installFakeEdge({
      '/api/cart': (_url: URL, init?: RequestInit) => {
        if (init?.method !== 'POST') return fixtures.cart();
        posted = JSON.parse(String(init.body));
        return cartWith({ quantity: 3, final_price: 83700 });
      },
    });
    render(<App route={route} path="/cart" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Add one Chicken Dum Biryani' }));

    expect(cartStore.setLineQuantity).toHaveBeenCalledWith('88001|ch1|v1', 3);
    // Optimistic first, then the server's price.
    expect(screen.getByRole('group', { name: 'Quantity of Chicken Dum Biryani' }).textContent).toContain('3');
    expect(await screen.findByText('₹837', { selector: '.cart-line__price' })).toBeTruthy();
    expect(posted).toMatchObject({ restaurantId: '1042', cartItems: [{ menu_item_id: '88001', quantity: 3 }] });
  });

  it('removes one with the minus button', async () => {
    installFakeEdge({ '/api/cart': (_url: URL, init?: RequestInit) => (init?.method === 'POST' ? cartWith({ quantity: 1, final_price: 27900 }) : fixtures.cart()) });
    render(<App route={route} path="/cart" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove one Chicken Dum Biryani' }));
    expect(cartStore.setLineQuantity).toHaveBeenCalledWith('88001|ch1|v1', 1);
  });

  it('invites the visitor to browse when the cart is empty', async () => {
    installFakeEdge({ '/api/cart': fixtures.emptyCart() });
    render(<App route={route} path="/cart" />);
    expect(await screen.findByText('Your cart is empty')).toBeTruthy();
    expect(screen.getByText('You can go to home page to view more restaurants')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'SEE RESTAURANTS NEAR YOU' }).getAttribute('href')).toBe('/');
  });

  it('flags an out-of-stock line as Unavailable and holds checkout back', async () => {
    installFakeEdge({
      '/api/cart': { status: 200, body: { statusCode: 8, statusMessage: 'Item(s) unavailable', data: cartWith({ in_stock: 0 }) } },
    });
    render(<App route={route} path="/cart" />);
    const lines = await screen.findByRole('list', { name: 'Items in cart' });
    expect(within(lines).getByText('Unavailable')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Item(s) unavailable');
    expect(screen.queryByRole('link', { name: 'Proceed to checkout' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Proceed to checkout' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Add one Chicken Dum Biryani' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the 429 screen without a retry when the edge is rate limiting', async () => {
    installFakeEdge({ '/api/cart': reply(429, 429, "We'll be back shortly") });
    render(<App route={route} path="/cart" />);
    expect(await screen.findByText("We'll be back shortly")).toBeTruthy();
    expect(screen.getByText("Our ovens need some maintenance. We'll be up and serving good food in no time.")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('shows the outage screen, and Retry fetches again', async () => {
    const fetch = installFakeEdge({ '/api/cart': reply(503, 777, "Something's broken") });
    render(<App route={route} path="/cart" />);
    expect(await screen.findByText('We are facing some outages on the storefront. Our best minds are working on it.')).toBeTruthy();
    const calls = fetch.mock.calls.length;
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    });
    expect(fetch.mock.calls.length).toBeGreaterThan(calls);
  });
});

describe('HeaderCart', () => {
  it('shows the empty placeholder', async () => {
    installFakeEdge({ '/api/cart': fixtures.emptyCart() });
    render(<HeaderCart />);
    expect(await screen.findByText('Cart Empty')).toBeTruthy();
    expect(screen.getByText('Good food is always cooking! Go ahead, order some yummy items from the menu.')).toBeTruthy();
  });

  it('fetches on mount, joining a fetch already in flight', async () => {
    const fetch = installFakeEdge({ '/api/cart': fixtures.cart() });
    const pending = cartStore.fetchCart();
    render(<HeaderCart />);
    await pending;
    expect(await screen.findByText('Meghana Biryani House')).toBeTruthy();
    expect(fetch).toHaveBeenCalledOnce();
  });

  it('shows the restaurant, items and subtotal, then checks out through the shell and closes itself', async () => {
    installFakeEdge({ '/api/cart': fixtures.cart() });
    const onClose = vi.fn();
    const navigations: string[] = [];
    const off = on('route:navigate', ({ to }, event) => {
      navigations.push(to);
      event.preventDefault();
    });
    render(<HeaderCart onClose={onClose} />);

    expect((await screen.findByText('Sub total')).parentElement!.textContent).toContain('₹558');
    expect(screen.getByText('Meghana Biryani House')).toBeTruthy();
    const lines = screen.getByRole('list', { name: 'Items in cart' });
    expect(within(lines).getByLabelText('Quantity 2').textContent).toBe('× 2');
    expect(within(lines).getByRole('img', { name: 'Non-veg' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'CHECKOUT' }));
    off();

    expect(onClose).toHaveBeenCalledOnce();
    expect(navigations).toEqual(['/checkout']);
  });
});
