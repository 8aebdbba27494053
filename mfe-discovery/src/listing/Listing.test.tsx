import { carryFirstReply, fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import { getUserLocation, on, setUserLocation, type ListingResponse, type Restaurant, type UserLocation } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Listing } from './Listing';

const koramangala: UserLocation = { lat: 12.9352, lng: 77.6245, address: 'Koramangala', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

/**
 * Stands in for the browser's IntersectionObserver; `reveal()` puts everything observed on screen.
 * Components start observing in an effect, which can run after the element is already in the
 * document, so a test waits for `watching(element)` before revealing it.
 */
class FakeIntersectionObserver {
  static live = new Set<FakeIntersectionObserver>();
  private readonly targets = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element) {
    this.targets.add(target);
    FakeIntersectionObserver.live.add(this);
  }
  disconnect() {
    this.targets.clear();
    FakeIntersectionObserver.live.delete(this);
  }
  static watching(element: Element): boolean {
    return [...FakeIntersectionObserver.live].some((o) => o.targets.has(element));
  }
  static reveal() {
    for (const o of [...FakeIntersectionObserver.live]) o.callback([{ isIntersecting: true } as IntersectionObserverEntry], o as unknown as IntersectionObserver);
  }
}

function restaurants(from: number, count: number, overrides: Partial<Restaurant> = {}): Restaurant[] {
  return Array.from({ length: count }, (_, i) => fixtures.restaurant({ id: String(from + i), name: `Restaurant ${from + i}`, ...overrides }));
}

function page(open: Restaurant[], closed: Restaurant[], offset: number, nextOffset: number | null, total = 4): ListingResponse {
  return fixtures.listing({
    totalRestaurants: total,
    pageIndex: offset / 2,
    pageOffset: { offset, nextOffset },
    serviceability: 'SERVICEABLE',
    cards: open.map((data) => ({ type: 'RESTAURANT', data })),
    closedCards: closed.map((data) => ({ type: 'RESTAURANT', data })),
  });
}

beforeEach(() => {
  FakeIntersectionObserver.live.clear();
  (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = FakeIntersectionObserver;
});

afterEach(() => {
  cleanup();
  delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
});

const cards = () => screen.queryAllByTestId('restaurant-card');

describe('Listing', () => {
  it('shows skeleton cards, then the count and one card per restaurant with the spec text', async () => {
    const fetch = installFakeEdge({
      '/api/restaurants/list/v5': page(
        [fixtures.restaurant()],
        [fixtures.restaurant({ id: '7', name: 'Night Owl', availability: { opened: false }, avgRating: null, avgRatingString: '--', aggregatedDiscountInfo: null })],
        0,
        null,
        2,
      ),
    });
    render(<Listing location={koramangala} title="Restaurants near you" />);
    expect(screen.getAllByTestId('restaurant-card-skeleton').length).toBeGreaterThan(0);

    expect((await screen.findByTestId('restaurant-count')).textContent).toBe('2 restaurants');
    const [open, closed] = cards();
    expect(open!.textContent).toContain('Meghana Biryani House');
    expect(open!.textContent).toContain('Biryani, Andhra');
    expect(open!.textContent).toContain('Koramangala, 5th Block');
    expect(open!.textContent).toContain('★ 4.3');
    expect(open!.textContent).toContain('25-35 MINS');
    expect(open!.textContent).toContain('₹400 FOR TWO');
    expect(open!.textContent).toContain('20% OFF UPTO ₹100');
    expect(within(open!).getByRole('link').getAttribute('href')).toBe('/restaurants/meghana-biryani-house-koramangala-1042');
    // The first cards' pictures open the page: fetched at once, ahead of the rest.
    const image = open!.querySelector('img')!;
    await waitFor(() => expect(image.getAttribute('src')).toBe('/images/restaurant-1042?w=508&h=320'));
    expect(image.getAttribute('fetchpriority')).toBe('high');
    // Further down (here the closed cards), a picture waits until it comes into view.
    const later = closed!.querySelector('img')!;
    expect(later.getAttribute('src')).toBeNull();
    await waitFor(() => expect(FakeIntersectionObserver.watching(later)).toBe(true));
    act(() => FakeIntersectionObserver.reveal());
    await waitFor(() => expect(later.getAttribute('src')).not.toBeNull());

    expect(closed!.textContent).toContain('★ --');
    expect(closed!.textContent).toContain('Closed & not delivering');
    expect(closed!.className).toContain('disc-card--closed');
    expect(String(fetch.mock.calls[0]![0])).toBe('/api/restaurants/list/v5?lat=12.9352&lng=77.6245&page_type=DESKTOP_WEB_LISTING&offset=0');
  });

  it('loads the next page when the end of the list comes into view, and stops at the last page', async () => {
    const fetch = installFakeEdge({
      '/api/restaurants/list/v5': page(restaurants(1, 2), restaurants(90, 1, { availability: { opened: false } }), 0, 2, 5),
      '/api/restaurants/list/update': page(restaurants(3, 2), [], 2, null, 5),
    });
    render(<Listing location={koramangala} title="Restaurants near you" />);
    await waitFor(() => expect(cards()).toHaveLength(3));
    const sentinel = screen.getByTestId('listing-sentinel');
    await waitFor(() => expect(FakeIntersectionObserver.watching(sentinel)).toBe(true));

    act(() => FakeIntersectionObserver.reveal());

    await waitFor(() => expect(cards()).toHaveLength(5));
    expect(cards().map((c) => c.dataset.restaurantId)).toEqual(['1', '2', '3', '4', '90']);
    expect(String(fetch.mock.calls[1]![0])).toBe('/api/restaurants/list/update');
    expect(JSON.parse(String(fetch.mock.calls[1]![1]!.body))).toMatchObject({ offset: 2, sortBy: 'RELEVANCE', filters: {} });
    expect(screen.queryByTestId('listing-sentinel')).toBeNull();
    act(() => FakeIntersectionObserver.reveal());
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('says there is no delivery for a non-serviceable location, and "Change location" opens the location sidebar', async () => {
    installFakeEdge({ '/api/restaurants/list/v5': { ...page([], [], 0, null, 0), serviceability: 'NON_SERVICEABLE' } });
    setUserLocation(koramangala);
    const opens: unknown[] = [];
    const off = on('location:open', (detail) => opens.push(detail));
    render(<Listing location={koramangala} title="Restaurants near you" />);
    const screenRegion = await screen.findByRole('region', { name: 'No delivery here' });
    expect(screenRegion.textContent).toContain("We don't have any services here till now. Try changing the location.");

    fireEvent.click(within(screenRegion).getByRole('button', { name: 'Change location' }));
    off();

    expect(opens).toEqual([{}]);
    // The location stays until the customer picks another one in the sidebar.
    expect(getUserLocation()).toEqual(koramangala);
    setUserLocation(null);
  });

  it('says "Location not found" when the edge cannot place the location, with "Change location"', async () => {
    for (const answer of [reply(404, 404, 'Location not found'), reply(400, 1, 'Invalid user location.')]) {
      installFakeEdge({ '/api/restaurants/list/v5': answer });
      const opens: unknown[] = [];
      const off = on('location:open', (detail) => opens.push(detail));
      render(<Listing location={koramangala} title="Restaurants near you" />);
      const screenRegion = await screen.findByRole('region', { name: 'Location not found' });
      expect(screenRegion.textContent).toContain("We don't have any services here till now. Try changing the location.");
      fireEvent.click(within(screenRegion).getByRole('button', { name: 'Change location' }));
      off();
      expect(opens).toEqual([{}]);
      cleanup();
    }
  });

  it('keeps "There\'s nothing here" for a collection that does not exist (not a location problem)', async () => {
    installFakeEdge({ '/api/restaurants/list/v5': reply(404, 404, 'Collection not found') });
    render(<Listing location={koramangala} title="Restaurants near you" collection="999" />);
    expect(await screen.findByText("There's nothing here")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Change location' })).toBeNull();
  });

  it("shows 'We'll be back shortly' without a retry when rate limited", async () => {
    installFakeEdge({ '/api/restaurants/list/v5': reply(429, 429, "We'll be back shortly") });
    render(<Listing location={koramangala} title="Restaurants near you" />);
    expect(await screen.findByText("We'll be back shortly")).toBeTruthy();
    expect(screen.getByText("Our ovens need some maintenance. We'll be up and serving good food in no time.")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it("shows the outage screen with a retry that loads again", async () => {
    let calls = 0;
    installFakeEdge({
      '/api/restaurants/list/v5': () => (++calls === 1 ? reply(503, 777, "Something's broken") : page(restaurants(1, 1), [], 0, null, 1)),
    });
    render(<Listing location={koramangala} title="Restaurants near you" />);
    expect(await screen.findByText("Something's broken")).toBeTruthy();
    expect(screen.getByText('We are facing some outages on the storefront. Our best minds are working on it.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));

    expect(await screen.findByText('Restaurant 1')).toBeTruthy();
  });

  it('refines with list/update when the sort or a filter changes, replacing the list', async () => {
    const bodies: Array<Record<string, unknown>> = [];
    installFakeEdge({
      '/api/restaurants/list/v5': page(restaurants(1, 3), [], 0, null, 3),
      '/api/restaurants/list/update': (_url: URL, init?: RequestInit) => {
        bodies.push(JSON.parse(String(init!.body)));
        return page(restaurants(50, 1, { vegOnly: true }), [], 0, null, 1);
      },
    });
    render(<Listing location={koramangala} title="Restaurants near you" />);
    await waitFor(() => expect(cards()).toHaveLength(3));

    fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'COST_LOW_TO_HIGH' } });
    await waitFor(() => expect(cards().map((c) => c.dataset.restaurantId)).toEqual(['50']));
    fireEvent.click(screen.getByRole('button', { name: 'Pure Veg' }));
    await waitFor(() => expect(bodies).toHaveLength(2));

    expect(bodies[0]).toMatchObject({ offset: 0, sortBy: 'COST_LOW_TO_HIGH', filters: {}, lat: 12.9352, lng: 77.6245 });
    expect(bodies[1]).toMatchObject({ offset: 0, sortBy: 'COST_LOW_TO_HIGH', filters: { pureVeg: true } });
    expect(screen.getByRole('button', { name: 'Pure Veg' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters (1)' }));
    await waitFor(() => expect(bodies).toHaveLength(3));
    expect(bodies[2]).toMatchObject({ filters: {} });
  });

  it('shows the cuisine carousel, offer banners and nudge, and filter collections only under the rule', async () => {
    const collections = [83001, 83002, 83003].map((id) => ({ id: String(id), title: `C${id}`, description: '', imageId: 'x', link: `/collections/${id}`, restaurants: 2 }));
    installFakeEdge({
      '/api/restaurants/list/v5': {
        ...page(restaurants(1, 3), [], 0, null, 3),
        topCarousel: [{ id: '80002', title: 'Biryani', description: '', imageId: 'collection-80002', link: '/collections/80002', restaurants: 2 }],
        bannerCarousel: [{ title: '20% OFF UPTO ₹100', text: 'at 2 restaurants near you', imageId: 'banner-1', link: '/offers' }],
        filterCollections: collections,
        nudgeCard: { title: 'Hungry in a hurry?', text: '2 restaurants can deliver in 30 minutes or less', link: '/collections/83004' },
      },
    });
    render(<Listing location={koramangala} title="Restaurants near you" />);
    await waitFor(() => expect(cards()).toHaveLength(3));

    const mind = screen.getByRole('region', { name: "What's on your mind?" });
    expect(within(mind).getByRole('link', { name: 'Biryani' }).getAttribute('href')).toBe('/collections/80002');
    expect(screen.getByText('at 2 restaurants near you')).toBeTruthy();
    expect(screen.getByTestId('nudge-card').textContent).toContain('Hungry in a hurry?');
    // Three filter collections: fewer than the four the spec asks for.
    expect(screen.queryByRole('navigation', { name: 'Collections' })).toBeNull();
  });

  describe('when the page came with its first page', () => {
    const carried = page(restaurants(1, 2), [], 0, 2, 4);
    const carry = (lat = koramangala.lat) =>
      carryFirstReply({
        path: 'restaurants/list/v5',
        query: { lat, lng: koramangala.lng, page_type: 'DESKTOP_WEB_LISTING', offset: 0 },
        page: '/restaurants',
        data: carried,
      });
    let undo: () => void = () => {};
    afterEach(() => undo());

    it('shows it on the first render and asks the edge for nothing', () => {
      undo = carry();
      const fetch = installFakeEdge({});
      render(<Listing location={koramangala} title="Restaurants near you" />);

      expect(screen.queryAllByTestId('restaurant-card-skeleton')).toHaveLength(0);
      expect(cards().map((c) => c.getAttribute('data-restaurant-id'))).toEqual(['1', '2']);
      expect(screen.getByTestId('restaurant-count').textContent).toBe('4 restaurants');
      expect(fetch).not.toHaveBeenCalled();
    });

    it('asks for the next page and refinements as usual, and a second listing fetches its own', async () => {
      undo = carry();
      const fetch = installFakeEdge({
        '/api/restaurants/list/update': page(restaurants(3, 2), [], 2, null, 4),
        '/api/restaurants/list/v5': page(restaurants(9, 1), [], 0, null, 1),
      });
      const first = render(<Listing location={koramangala} title="Restaurants near you" />);
      const sentinel = screen.getByTestId('listing-sentinel');
      await waitFor(() => expect(FakeIntersectionObserver.watching(sentinel)).toBe(true));
      act(() => FakeIntersectionObserver.reveal());
      await waitFor(() => expect(cards()).toHaveLength(4));
      expect(fetch.mock.calls.map(([url]) => String(url))).toEqual(['/api/restaurants/list/update']);

      first.unmount();
      render(<Listing location={koramangala} title="Restaurants near you" />);
      await waitFor(() => expect(cards().map((c) => c.getAttribute('data-restaurant-id'))).toEqual(['9']));
      expect(String(fetch.mock.calls[1]![0])).toContain('/api/restaurants/list/v5?lat=12.9352&lng=77.6245');
    });

    it('is not used for another point', async () => {
      undo = carry(12.9);
      const fetch = installFakeEdge({ '/api/restaurants/list/v5': page(restaurants(9, 1), [], 0, null, 1) });
      render(<Listing location={koramangala} title="Restaurants near you" />);
      expect(screen.getAllByTestId('restaurant-card-skeleton').length).toBeGreaterThan(0);
      await waitFor(() => expect(cards().map((c) => c.getAttribute('data-restaurant-id'))).toEqual(['9']));
      expect(fetch).toHaveBeenCalledOnce();
    });
  });
});
