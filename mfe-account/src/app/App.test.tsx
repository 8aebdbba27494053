import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json';
import { superPlan } from '../test/fixtures';
import App from './App';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Tiffin One and support', () => {
  it('lists membership plans with rupee prices', async () => {
    installFakeEdge({
      '/api/super/plans': {
        type: 'plan-listing',
        plans: [superPlan({ planId: '1', title: '3 months', basePrice: 29900, finalPrice: 14900, recommendedText: 'Best value', discountDescription: '' })],
      },
    });
    const { container } = render(<App route={{ id: 'membership', pageType: 'MEMBERSHIP', params: {} }} path="/tiffin-one" />);
    expect(await screen.findByText('3 months')).toBeTruthy();
    expect(screen.getByText('₹149')).toBeTruthy();
    expect(screen.getByText('Best value')).toBeTruthy();
    expect(container.querySelector('[data-mfe="mfe-account"]')?.getAttribute('data-mfe-version')).toBe(pkg.version);
  });

  it('lists support issue types', async () => {
    installFakeEdge({ '/api/support': { issueTypes: [{ id: 'i1', title: 'Help with orders', description: 'Track, cancel or report' }] } });
    render(<App route={{ id: 'support', pageType: 'SUPPORT', params: {} }} path="/support" />);
    expect(await screen.findByText('Help with orders')).toBeTruthy();
  });

  describe('opened from an order', () => {
    afterEach(() => window.history.replaceState(null, '', '/'));

    it('names the order the help is about, with a link to it', async () => {
      window.history.replaceState(null, '', '/support?order_id=123');
      const asked: string[] = [];
      installFakeEdge({
        '/api/support': { issueTypes: [{ id: 'i1', title: 'Help with orders', description: 'Track, cancel or report' }] },
        '/api/order/details': (url: URL) => {
          asked.push(url.searchParams.get('order_id') ?? '');
          return fixtures.orderDetails();
        },
      });
      render(<App route={{ id: 'support', pageType: 'SUPPORT', params: {} }} path="/support" />);
      const about = await screen.findByRole('region', { name: 'About your order' });
      expect(about.textContent).toContain('Order #123 from Meghana Foods');
      expect(about.textContent).toContain('₹456.50');
      expect(about.textContent).toContain('Paneer Tikka × 2, Naan × 1');
      expect(about.querySelector('a')?.getAttribute('href')).toBe('/my-account/orders/123');
      expect(asked).toEqual(['123']);
      expect(await screen.findByText('Help with orders')).toBeTruthy();
    });

    it('says so when the order cannot be read, and still shows the help', async () => {
      window.history.replaceState(null, '', '/support?order_id=999');
      installFakeEdge({
        '/api/support': { issueTypes: [{ id: 'i1', title: 'Help with orders', description: 'Track, cancel or report' }] },
        '/api/order/details': reply(404, 404, 'Order not found'),
      });
      render(<App route={{ id: 'support', pageType: 'SUPPORT', params: {} }} path="/support" />);
      expect(await screen.findByText('We could not find order #999 in your orders.')).toBeTruthy();
      expect(await screen.findByText('Help with orders')).toBeTruthy();
    });

    it('ignores an order id that is not a number', async () => {
      window.history.replaceState(null, '', '/support?order_id=%3Cscript%3E');
      const fetch = installFakeEdge({ '/api/support': { issueTypes: [] } });
      render(<App route={{ id: 'support', pageType: 'SUPPORT', params: {} }} path="/support" />);
      await screen.findByRole('heading', { name: 'Help & Support' });
      expect(screen.queryByRole('region', { name: 'About your order' })).toBeNull();
      expect(fetch.mock.calls.map(([u]) => String(u)).some((u) => u.includes('order/details'))).toBe(false);
    });
  });
});
