import { fixtures, installFakeEdge } from '@tiffin/api-client/testing';
import { getUserLocation, on, setUserLocation, type MatchedRoute, type PageType } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json';
import App from './App';

vi.mock('@tiffin/cart-store', () => import('../test/fake-cart-store'));

const koramangala = { lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bangalore, Karnataka, India', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

const oneRestaurant = {
  totalRestaurants: 1,
  pageIndex: 0,
  pageOffset: { offset: 0, nextOffset: null },
  serviceability: 'SERVICEABLE',
  cards: [{ type: 'RESTAURANT', data: fixtures.restaurant() }],
  closedCards: [],
};

function route(id: string, pageType: PageType, params: Record<string, string> = {}): MatchedRoute {
  return { id, pageType, params };
}

function recordNavigations() {
  const navigations: string[] = [];
  const off = on('route:navigate', ({ to }, event) => {
    navigations.push(to);
    event.preventDefault();
  });
  return { navigations, off };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
  document.cookie = 'userLocation=; Max-Age=0; Path=/';
});

describe('mfe-discovery App', () => {
  it('renders its version on the root element', () => {
    installFakeEdge({});
    const { container } = render(<App route={route('home', 'HOME')} path="/" />);
    expect(container.querySelector('[data-mfe="mfe-discovery"]')?.getAttribute('data-mfe-version')).toBe(pkg.version);
  });

  it('shows the landing page on home without a location, then the listing once one is chosen', async () => {
    installFakeEdge({
      '/api/misc/place-autocomplete': [
        {
          place_id: 'bangalore-koramangala',
          description: 'Koramangala, Bangalore, Karnataka, India',
          structured_formatting: { main_text: 'Koramangala', secondary_text: 'Bangalore, Karnataka, India' },
          terms: [],
          types: ['sublocality'],
        },
      ],
      '/api/misc/address-recommend': [
        {
          place_id: 'bangalore-koramangala',
          formatted_address: 'Koramangala, Bangalore, Karnataka, India',
          address_components: [],
          geometry: { location: { lat: 12.9352, lng: 77.6245 } },
          area: 'Koramangala',
          city: 'bangalore',
          main_text: 'Koramangala',
        },
      ],
      '/api/restaurants/list/v5': oneRestaurant,
    });
    render(<App route={route('home', 'HOME')} path="/" />);

    // The landing page is its own chunk: it shows once that has loaded.
    expect(await screen.findByRole('heading', { name: 'Hungry?' })).toBeTruthy();
    fireEvent.change(screen.getByTestId('location-input'), { target: { value: 'kora' } });
    fireEvent.click(await screen.findByRole('option', { name: /Koramangala/ }));

    expect(await screen.findByText('Meghana Biryani House')).toBeTruthy();
    expect(getUserLocation()).toEqual(koramangala);
  });

  it('shows the listing on home and /restaurants with a stored location', async () => {
    setUserLocation(koramangala);
    installFakeEdge({ '/api/restaurants/list/v5': oneRestaurant });
    render(<App route={route('listing', 'LISTING')} path="/restaurants" />);
    expect((await screen.findByTestId('restaurant-count')).textContent).toBe('1 restaurant');
    expect(screen.getAllByTestId('restaurant-card')).toHaveLength(1);
  });

  it('asks for a location on /restaurants without one', () => {
    installFakeEdge({});
    render(<App route={route('listing', 'LISTING')} path="/restaurants" />);
    expect(screen.getByText('Please enter your delivery location to view restaurants.')).toBeTruthy();
  });

  it.each([
    ['menu', { slug: 'meghana', restaurantId: '1042' }, ''],
    ['menu-by-id', { restaurantId: '1042' }, ''],
    ['city-restaurant', { city: 'bangalore', slug: 'meghana', restaurantId: '1042' }, ''],
    ['menu-index', {}, '?restaurant_id=1042'],
  ])('renders the menu for the %s route', async (id, params, search) => {
    window.history.replaceState(null, '', `/x${search}`);
    const fetch = installFakeEdge({
      '/api/menu/pl': { restaurant: fixtures.menuRestaurant(), menu: { widgets: [{ type: 'CATEGORY', id: 'c', name: 'Biryani', entities: [{ id: '88001' }], widgets: [] }], items: { '88001': fixtures.menuItem() }, itemCount: 1 } },
    });
    render(<App route={route(id, 'MENU', params)} path="/x" />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Meghana Biryani House' })).toBeTruthy();
    expect(screen.getByTestId('menu-item').textContent).toContain('Chicken Dum Biryani');
    expect(String(fetch.mock.calls.find((c) => String(c[0]).includes('menu/pl'))![0])).toContain('restaurantId=1042');
  });

  it.each([
    ['search', 'SEARCH'],
    ['collection', 'COLLECTION'],
    ['offers', 'OFFERS'],
  ] as const)('sends %s without a location home', async (id, pageType) => {
    installFakeEdge({});
    const { navigations, off } = recordNavigations();
    render(<App route={route(id, pageType, { collectionId: '83951' })} path={`/${id}`} />);
    await waitFor(() => expect(navigations).toEqual(['/']));
    off();
  });

  it('lists a collection with the collection page type', async () => {
    setUserLocation(koramangala);
    const fetch = installFakeEdge({ '/api/restaurants/list/v5': oneRestaurant });
    render(<App route={route('collection', 'COLLECTION', { collectionId: '83951' })} path="/collections/83951" />);
    await screen.findAllByTestId('restaurant-card');
    expect(String(fetch.mock.calls[0]![0])).toContain('collection=83951&page_type=DESKTOP_COLLECTION_LISTING');
  });

  it('shows the restaurant offers near the location on the offers page (asking the edge for offers only)', async () => {
    setUserLocation(koramangala);
    const fetch = installFakeEdge({ '/api/restaurants/list/update': oneRestaurant });
    render(<App route={route('offers', 'OFFERS', { tab: 'restaurant' })} path="/offers/restaurant" />);
    await screen.findAllByTestId('restaurant-card');
    expect(screen.getAllByTestId('restaurant-card').map((c) => c.dataset.restaurantId)).toEqual(['1042']);
    expect(JSON.parse(String(fetch.mock.calls[0]![1]!.body))).toMatchObject({ filters: { offers: true } });
  });

  it('shows a city page from the catalogue, with or without a location', async () => {
    installFakeEdge({
      '/api/restaurants/city': {
        city: { slug: 'bangalore', name: 'Bangalore', enabled: true },
        area: null,
        cuisine: null,
        title: 'Food delivery in Bangalore | Order food online | Tiffin',
        description: 'Order food online from the best restaurants in Bangalore on Tiffin.',
        heading: 'Food delivery in Bangalore',
        totalRestaurants: 1,
        pageOffset: { offset: 0, nextOffset: null },
        cards: oneRestaurant.cards,
        areas: [],
        cuisines: [],
      },
    });
    render(<App route={route('city', 'CITY', { city: 'bangalore' })} path="/bangalore" />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Food delivery in Bangalore' })).toBeTruthy();
    expect(await screen.findAllByTestId('restaurant-card')).toHaveLength(1);
  });
});
