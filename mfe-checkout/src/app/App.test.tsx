import { installFakeEdge } from '@tiffin/api-client/testing';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json';
import App from './App';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('mfe-checkout App', () => {
  it('lists the known payment groups on checkout and drops unknown ones', async () => {
    installFakeEdge({
      '/api/payment/get-methods': {
        payment_groups: [
          { group_name: 'UPI', payment_methods: [{ payment_code: 'upi_collect', name: 'UPI', enabled: true }] },
          { group_name: 'crypto', payment_methods: [{ payment_code: 'btc', name: 'Bitcoin', enabled: true }] },
        ],
      },
    });
    const { container } = render(<App route={{ id: 'checkout', pageType: 'CHECKOUT', params: {} }} path="/checkout" />);

    expect(await screen.findByRole('region', { name: 'UPI' })).toBeTruthy();
    expect(screen.queryByText('Bitcoin')).toBeNull();
    expect(container.querySelector('[data-mfe="mfe-checkout"]')?.getAttribute('data-mfe-version')).toBe(pkg.version);
  });

  it('shows the tracked order id', () => {
    installFakeEdge({});
    render(<App route={{ id: 'track-order', pageType: 'TRACKING', params: { orderId: '555' } }} path="/track-order/555" />);
    expect(screen.getByRole('heading', { name: 'Order #555' })).toBeTruthy();
  });
});
