import { installFakeEdge } from '@tiffin/api-client/testing';
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
});
