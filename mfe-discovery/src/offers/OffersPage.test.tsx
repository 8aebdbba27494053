import { fixtures, installFakeEdge } from '@tiffin/api-client/testing';
import type { UserLocation } from '@tiffin/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { OffersPage, offersTab } from './OffersPage';

const koramangala: UserLocation = { lat: 12.9352, lng: 77.6245, address: 'Koramangala', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

afterEach(cleanup);

describe('OffersPage', () => {
  it('sends a missing or unknown tab to the restaurant offers', () => {
    expect(offersTab(undefined)).toEqual({ redirect: '/offers/restaurant' });
    expect(offersTab('nonsense')).toEqual({ redirect: '/offers/restaurant' });
    expect(offersTab('payment')).toEqual({ tab: 'payment' });
  });

  it('lists restaurants with offers near the location, asking the edge for offers only', async () => {
    const fetch = installFakeEdge({
      '/api/restaurants/list/update': {
        totalRestaurants: 1,
        pageIndex: 0,
        pageOffset: { offset: 0, nextOffset: null },
        serviceability: 'SERVICEABLE',
        cards: [{ type: 'RESTAURANT', data: fixtures.restaurant() }],
        closedCards: [],
      },
    });
    render(<OffersPage tab="restaurant" location={koramangala} />);

    expect(await screen.findByText('Meghana Biryani House')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Offers for you' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Offers near you' })).toBeTruthy();
    expect(JSON.parse(String(fetch.mock.calls[0]![1]!.body))).toMatchObject({ filters: { offers: true }, offset: 0 });
  });
});
