import { fixtures, installFakeEdge } from '@tiffin/api-client/testing';
import * as cartStore from '@tiffin/cart-store';
import type { SearchDish, SearchResultsResponse, SearchTab } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetFakeCart } from '../test/fake-cart-store';
import { RECENT_SEARCHES_KEY } from './recent-searches';
import { NOTHING_HERE, SearchPage } from './SearchPage';

vi.mock('@tiffin/cart-store', () => import('../test/fake-cart-store'));

const koramangala = { lat: 12.9352, lng: 77.6245, address: 'Koramangala', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

const dish = (over: Partial<SearchDish> = {}): SearchDish => ({
  id: '104201',
  restaurantId: '1042',
  name: 'Chicken Dum Biryani',
  category: 'Biryani',
  price: 29900,
  defaultPrice: null,
  vegType: 'NONVEG',
  isVeg: 0,
  inStock: 1,
  customisable: false,
  cloudinaryImageId: 'item-104201',
  ...over,
});

function results(tab: SearchTab, counts: [number, number] = [1, 2]): SearchResultsResponse {
  const navigation: SearchResultsResponse['navigation'] = [
    { id: 'RESTAURANT', title: 'Restaurants', count: counts[0] },
    { id: 'DISH', title: 'Dishes', count: counts[1] },
  ];
  const cards: SearchResultsResponse['cards'] =
    tab === 'RESTAURANT'
      ? counts[0] > 0
        ? [{ type: 'RESTAURANT', tab: 'RESTAURANT', data: fixtures.restaurant() }]
        : []
      : [
          { type: 'DISH', tab: 'DISH', data: { dish: dish(), restaurant: fixtures.restaurant() } },
          { type: 'DISH', tab: 'DISH', data: { dish: dish({ id: '104202', name: 'Paneer Biryani', customisable: true }), restaurant: fixtures.restaurant() } },
        ].slice(0, counts[1]) as SearchResultsResponse['cards'];
  return { query: 'biryani', selectedTab: tab, navigation, cards };
}

function edge(extra: Record<string, unknown> = {}) {
  return installFakeEdge({
    '/api/landing/PRE_SEARCH': {
      pageOffset: { offset: 0, nextOffset: null },
      firstOffsetRequest: true,
      ribbons: [],
      cards: [{ card: { type: 'POPULAR_CUISINES', title: 'Popular Cuisines', cuisines: [{ name: 'Biryani', restaurantCount: 7, cloudinaryImageId: 'cuisine-biryani' }] } }],
    },
    '/api/restaurants/search/suggest': {
      suggestions: [
        { type: 'CUISINE', text: 'Biryani', subtitle: 'Cuisine', cloudinaryImageId: 'cuisine-biryani' },
        { type: 'RESTAURANT', text: 'Meghana Biryani House', subtitle: 'Koramangala', cloudinaryImageId: 'r', restaurantId: '1042', slug: 'meghana', city: 'bangalore' },
      ],
    },
    '/api/restaurants/search/v3': (url: URL) => results((url.searchParams.get('selectedTab') as SearchTab) ?? 'RESTAURANT'),
    ...extra,
  });
}

const calls = (fetch: ReturnType<typeof installFakeEdge>, path: string) => fetch.mock.calls.filter((c) => String(c[0]).includes(path)).map((c) => String(c[0]));

beforeEach(() => {
  window.localStorage.clear();
  window.history.replaceState(null, '', '/search');
  resetFakeCart();
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('SearchPage', () => {
  it('shows popular cuisines and recent searches before anything is typed', async () => {
    window.localStorage.setItem(RECENT_SEARCHES_KEY, JSON.stringify(['pizza', 'dosa']));
    edge();

    render(<SearchPage location={koramangala} />);

    expect(await screen.findByRole('button', { name: 'Biryani, 7 restaurants' })).toBeTruthy();
    const recent = screen.getByTestId('recent-searches');
    expect([...recent.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['pizza', 'dosa']);
  });

  it('suggests once typing pauses, with the location, and a suggestion runs its search', async () => {
    const fetch = edge();
    render(<SearchPage location={koramangala} />);

    fireEvent.change(screen.getByTestId('search-input'), { target: { value: 'b' } });
    fireEvent.change(screen.getByTestId('search-input'), { target: { value: 'bir' } });
    await screen.findByTestId('search-suggestions');

    expect(calls(fetch, 'search/suggest')).toHaveLength(1);
    expect(calls(fetch, 'search/suggest')[0]).toContain('str=bir&lat=12.9352&lng=77.6245');
    expect(screen.getByRole('link', { name: /Meghana Biryani House/ }).getAttribute('href')).toBe('/restaurants/meghana-1042');
    fireEvent.click(screen.getByRole('button', { name: /Biryani Cuisine/ }));
    await screen.findAllByTestId('restaurant-card');
    expect(calls(fetch, 'search/v3')[0]).toContain('str=Biryani');
  });

  it('selects the first tab, fetches another tab once and serves it from the cache after', async () => {
    const fetch = edge();
    render(<SearchPage location={koramangala} />);

    fireEvent.change(screen.getByTestId('search-input'), { target: { value: 'biryani' } });
    fireEvent.submit(screen.getByRole('search'));
    await screen.findAllByTestId('restaurant-card');
    expect(screen.getByTestId('search-tab-RESTAURANT').getAttribute('aria-selected')).toBe('true');

    fireEvent.click(screen.getByTestId('search-tab-DISH'));
    expect(await screen.findAllByTestId('dish-result')).toHaveLength(2);
    fireEvent.click(screen.getByTestId('search-tab-RESTAURANT'));
    await screen.findAllByTestId('restaurant-card');
    fireEvent.click(screen.getByTestId('search-tab-DISH'));
    await screen.findAllByTestId('dish-result');

    const searches = calls(fetch, 'search/v3');
    expect(searches).toHaveLength(2);
    expect(searches[1]).toContain('selectedTab=DISH');
    expect(JSON.parse(window.localStorage.getItem(RECENT_SEARCHES_KEY) ?? '[]')).toEqual(['biryani']);
  });

  it('adds a plain dish to the cart and sends a customisable one to its menu', async () => {
    edge();
    window.history.replaceState(null, '', '/search?query=biryani');
    render(<SearchPage location={koramangala} />);
    await screen.findAllByTestId('restaurant-card');
    fireEvent.click(screen.getByTestId('search-tab-DISH'));
    const [plain, customisable] = await screen.findAllByTestId('dish-result');

    fireEvent.click(plain!.querySelector('[data-testid="add-button"]')!);

    await waitFor(() => expect(cartStore.addItem).toHaveBeenCalledWith('1042', { menu_item_id: '104201', quantity: 1 }, expect.anything()));
    expect(customisable!.querySelector('a.disc-search__dish-customise')!.getAttribute('href')).toMatch(/^\/restaurants\/.*-1042$/);
  });

  it("says there's nothing here when no tab has a result", async () => {
    edge({ '/api/restaurants/search/v3': results('RESTAURANT', [0, 0]) });
    window.history.replaceState(null, '', '/search?query=xqzzy');

    render(<SearchPage location={koramangala} />);

    expect(await screen.findByRole('heading', { name: NOTHING_HERE.title })).toBeTruthy();
    expect(screen.getByText(NOTHING_HERE.message)).toBeTruthy();
  });
});
