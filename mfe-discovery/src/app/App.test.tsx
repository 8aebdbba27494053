import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import { getUserLocation, on, setUserLocation, type MatchedRoute, type PageType } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pkg from '../../package.json';
import App from './App';

const koramangala = { lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bangalore, Karnataka, India', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

function route(id: string, pageType: PageType, params: Record<string, string> = {}): MatchedRoute {
  return { id, pageType, params };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.cookie = 'userLocation=; Max-Age=0; Path=/';
});

describe('mfe-discovery App', () => {
  it('renders its version on the root element', () => {
    installFakeEdge({});
    const { container } = render(<App route={route('home', 'HOME')} path="/" />);
    expect(container.querySelector('[data-mfe="mfe-discovery"]')?.getAttribute('data-mfe-version')).toBe(pkg.version);
  });

  it('shows the landing page without a location and sets one from a suggestion', async () => {
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
      '/api/restaurants/list/v5': { totalRestaurants: 1, pageIndex: 0, pageOffset: { offset: 0, nextOffset: null }, serviceability: 'SERVICEABLE', cards: [{ type: 'RESTAURANT', data: fixtures.restaurant() }], closedCards: [] },
    });
    const changes: unknown[] = [];
    const off = on('location:changed', (l) => changes.push(l));
    render(<App route={route('home', 'HOME')} path="/" />);

    expect(screen.getByRole('heading', { name: 'Hungry?' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Enter your delivery location'), { target: { value: 'kora' } });
    fireEvent.click(screen.getByRole('button', { name: 'FIND FOOD' }));
    fireEvent.click(await screen.findByRole('button', { name: /Koramangala/ }));

    expect(await screen.findByText('Meghana Biryani House')).toBeTruthy();
    off();
    expect(getUserLocation()).toEqual(koramangala);
    expect(changes).toEqual([koramangala]);
  });

  it('lists restaurants for a stored location with rating, SLA and cost for two', async () => {
    setUserLocation(koramangala);
    const fetch = installFakeEdge({
      '/api/restaurants/list/v5': {
        totalRestaurants: 2,
        pageIndex: 0,
        pageOffset: { offset: 0, nextOffset: null },
        serviceability: 'SERVICEABLE',
        cards: [{ type: 'RESTAURANT', data: fixtures.restaurant() }],
        closedCards: [{ type: 'RESTAURANT', data: fixtures.restaurant({ id: '7', name: 'Night Owl', availability: { opened: false }, avgRating: null }) }],
      },
    });
    render(<App route={route('listing', 'LISTING')} path="/restaurants" />);

    const open = await screen.findByRole('list', { name: 'Open restaurants' });
    expect(open.textContent).toContain('Meghana Biryani House');
    expect(open.textContent).toContain('★ 4.3');
    expect(open.textContent).toContain('25-35 MINS');
    expect(open.textContent).toContain('₹400 FOR TWO');
    expect(screen.getByRole('list', { name: 'Closed restaurants' }).textContent).toContain('★ --');
    expect(String(fetch.mock.calls[0]![0])).toContain('lat=12.9352&lng=77.6245');
  });

  it('says so when nothing delivers to the location', async () => {
    setUserLocation(koramangala);
    installFakeEdge({
      '/api/restaurants/list/v5': { totalRestaurants: 0, pageIndex: 0, pageOffset: { offset: 0, nextOffset: null }, serviceability: 'NON_SERVICEABLE', cards: [], closedCards: [] },
    });
    render(<App route={route('listing', 'LISTING')} path="/restaurants" />);
    expect(await screen.findByText('No delivery here')).toBeTruthy();
  });

  it('renders a menu with categories, veg marks and prices', async () => {
    installFakeEdge({
      '/api/menu/pl': {
        restaurant: fixtures.restaurant(),
        menu: {
          widgets: [{ type: 'CATEGORY', id: 'c-3', name: 'Biryani', entities: [{ id: '88001' }], widgets: [] }],
          items: { '88001': fixtures.menuItem() },
        },
      },
    });
    render(<App route={route('menu', 'MENU', { slug: 'meghana', restaurantId: '1042' })} path="/restaurants/meghana-1042" />);

    expect(await screen.findByRole('heading', { name: 'Meghana Biryani House' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Biryani (1)' })).toBeTruthy();
    expect(screen.getByText('Chicken Dum Biryani')).toBeTruthy();
    expect(screen.getByText('₹249', { exact: false })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Non-veg' })).toBeTruthy();
  });

  it('shows the spec copy when the restaurant does not exist', async () => {
    installFakeEdge({ '/api/menu/pl': reply(404, 404, 'Restaurant not found') });
    render(<App route={route('menu-by-id', 'MENU', { restaurantId: '999' })} path="/menu/999" />);
    expect(await screen.findByText("There's nothing here")).toBeTruthy();
  });

  it('sends search without a location home', async () => {
    installFakeEdge({});
    const navigations: string[] = [];
    const off = on('route:navigate', ({ to }, event) => {
      navigations.push(to);
      event.preventDefault();
    });
    render(<App route={route('search', 'SEARCH')} path="/search" />);
    await waitFor(() => expect(navigations).toEqual(['/']));
    off();
  });
});
