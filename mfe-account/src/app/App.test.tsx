import { installFakeEdge, reply } from '@tiffin/api-client/testing';
import { on } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json';
import App from './App';
import AuthSidebar, { isValidMobile } from './AuthSidebar';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('my-account', () => {
  it('asks a visitor who is not logged in to log in, through the auth sidebar', async () => {
    installFakeEdge({ '/api/order/all': reply(401, 999, 'Please login to continue.') });
    const opened: string[] = [];
    const off = on('auth:open', ({ mode }) => opened.push(mode));
    const { container } = render(<App route={{ id: 'account', pageType: 'ACCOUNT', params: {} }} path="/my-account" />);

    fireEvent.click(await screen.findByRole('button', { name: 'LOGIN' }));
    off();

    expect(opened).toEqual(['login']);
    expect(container.querySelector('[data-mfe="mfe-account"]')?.getAttribute('data-mfe-version')).toBe(pkg.version);
  });

  it('shows the empty orders state', async () => {
    installFakeEdge({ '/api/order/all': { orders: [], total_orders: 0 } });
    render(<App route={{ id: 'account', pageType: 'ACCOUNT', params: { tab: 'orders' } }} path="/my-account/orders" />);
    expect(await screen.findByText("You haven't placed any order yet.")).toBeTruthy();
  });
});

describe('Tiffin One and support', () => {
  it('lists membership plans with rupee prices', async () => {
    installFakeEdge({
      '/api/super/plans': {
        plans: [{ planId: '1', planName: 'ONE_3M', title: '3 months', basePrice: 29900, finalPrice: 14900, recommended: true, recommendedText: 'Best value', planElement: ['Free deliveries'] }],
      },
    });
    render(<App route={{ id: 'membership', pageType: 'MEMBERSHIP', params: {} }} path="/tiffin-one" />);
    expect(await screen.findByText('3 months')).toBeTruthy();
    expect(screen.getByText('₹149')).toBeTruthy();
    expect(screen.getByText('Best value')).toBeTruthy();
  });

  it('lists support issue types', async () => {
    installFakeEdge({ '/api/support': { issueTypes: [{ id: 'i1', title: 'Help with orders', description: 'Track, cancel or report' }] } });
    render(<App route={{ id: 'support', pageType: 'SUPPORT', params: {} }} path="/support" />);
    expect(await screen.findByText('Help with orders')).toBeTruthy();
  });
});

describe('AuthSidebar', () => {
  it('validates the phone number and closes on Escape', () => {
    const onClose = vi.fn();
    render(<AuthSidebar open mode="login" onClose={onClose} />);

    fireEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter your 10-digit mobile number');

    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('switches between login and sign-up', () => {
    render(<AuthSidebar open mode="login" onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'create an account' }));
    expect(screen.getByRole('dialog', { name: 'Sign up' })).toBeTruthy();
  });

  it('accepts Indian mobile numbers only', () => {
    expect(isValidMobile('9876543210')).toBe(true);
    expect(isValidMobile('1234567890')).toBe(false);
    expect(isValidMobile('98765')).toBe(false);
  });
});
