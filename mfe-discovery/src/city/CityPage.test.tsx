import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import type { CityPageResponse } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CityPage } from './CityPage';

afterEach(cleanup);

function cityPage(offset: number, ids: string[], nextOffset: number | null): CityPageResponse {
  return {
    city: { slug: 'bangalore', name: 'Bangalore', enabled: true },
    area: null,
    cuisine: null,
    title: 'Food delivery in Bangalore | Order food online | Tiffin',
    description: 'Order food online from the best restaurants in Bangalore on Tiffin.',
    heading: 'Food delivery in Bangalore',
    totalRestaurants: 3,
    pageOffset: { offset, nextOffset },
    cards: ids.map((id) => ({ type: 'RESTAURANT', data: fixtures.restaurant({ id, name: `Place ${id}` }) })),
    areas: [{ slug: 'koramangala', name: 'Koramangala', restaurants: 2, link: '/city/bangalore/koramangala-restaurants' }],
    cuisines: [{ label: 'Biryani', count: 2, link: '/bangalore/biryani-collection' }],
  };
}

describe('CityPage', () => {
  it('shows the heading, restaurants, more on request, and links to areas and cuisines', async () => {
    const fetch = installFakeEdge({
      '/api/restaurants/city': (url: URL) => (url.searchParams.get('offset') === '0' ? cityPage(0, ['1', '2'], 2) : cityPage(2, ['3'], null)),
    });
    render(<CityPage city="bangalore" />);

    expect(await screen.findByRole('heading', { name: 'Food delivery in Bangalore' })).toBeTruthy();
    expect(document.title).toBe('Food delivery in Bangalore | Order food online | Tiffin');
    expect(screen.getAllByTestId('restaurant-card')).toHaveLength(2);
    const areas = screen.getByRole('navigation', { name: 'Areas in Bangalore' });
    expect(within(areas).getByRole('link', { name: /Koramangala/ }).getAttribute('href')).toBe('/city/bangalore/koramangala-restaurants');
    const cuisines = screen.getByRole('navigation', { name: 'Cuisines in Bangalore' });
    expect(within(cuisines).getByRole('link', { name: /Biryani/ }).getAttribute('href')).toBe('/bangalore/biryani-collection');

    fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(() => expect(screen.getAllByTestId('restaurant-card')).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(String(fetch.mock.calls[1]![0])).toContain('offset=2');
  });

  it('says location not found for an unknown city or area', async () => {
    installFakeEdge({ '/api/restaurants/city': reply(404, 404, 'Location not found') });
    render(<CityPage city="atlantis" />);
    expect(await screen.findByText('Location not found')).toBeTruthy();
  });
});
