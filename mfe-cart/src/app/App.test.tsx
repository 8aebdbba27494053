import { fixtures, installFakeEdge } from '@tiffin/api-client/testing';
import { on } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json';
import App from './App';
import HeaderCart from './HeaderCart';

const route = { id: 'cart', pageType: 'CART' as const, params: {} };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('cart page', () => {
  it('shows the lines, total and checkout link, and announces the count', async () => {
    installFakeEdge({ '/api/cart': fixtures.cart() });
    const counts: number[] = [];
    const off = on('cart:updated', ({ count }) => counts.push(count));
    const { container } = render(<App route={route} path="/cart" />);

    expect(await screen.findByRole('heading', { name: 'Meghana Biryani House' })).toBeTruthy();
    off();
    const lines = screen.getByRole('list', { name: 'Items in cart' });
    expect(lines.textContent).toContain('Chicken Dum Biryani');
    expect(lines.textContent).toContain('Half, Raita');
    expect(lines.textContent).toContain('× 2');
    expect(screen.getAllByText('₹558')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'PROCEED TO CHECKOUT' }).getAttribute('href')).toBe('/checkout');
    expect(counts).toEqual([2]);
    expect(container.querySelector('[data-mfe="mfe-cart"]')?.getAttribute('data-mfe-version')).toBe(pkg.version);
  });

  it('invites the visitor to browse when the cart is empty', async () => {
    installFakeEdge({ '/api/cart': fixtures.emptyCart() });
    render(<App route={route} path="/cart" />);
    expect(await screen.findByText('Your cart is empty')).toBeTruthy();
  });
});

describe('HeaderCart', () => {
  it('shows the empty placeholder', async () => {
    installFakeEdge({ '/api/cart': fixtures.emptyCart() });
    render(<HeaderCart />);
    expect(await screen.findByText('Cart Empty')).toBeTruthy();
  });

  it('checks out through the shell and closes itself', async () => {
    installFakeEdge({ '/api/cart': fixtures.cart() });
    const onClose = vi.fn();
    const navigations: string[] = [];
    const off = on('route:navigate', ({ to }, event) => {
      navigations.push(to);
      event.preventDefault();
    });
    render(<HeaderCart onClose={onClose} />);

    expect((await screen.findByText('Sub total')).parentElement!.textContent).toContain('₹558');
    fireEvent.click(screen.getByRole('button', { name: 'CHECKOUT' }));
    off();

    expect(onClose).toHaveBeenCalledOnce();
    expect(navigations).toEqual(['/checkout']);
  });
});
