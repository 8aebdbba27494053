import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import { on, resetCurrentUserForTests, setCurrentUser, type User, type UserLocation } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CollectionPage, isFavouritesCollection } from './CollectionPage';

const koramangala: UserLocation = { lat: 12.9352, lng: 77.6245, address: 'Koramangala', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

const asha: User = {
  customer_id: '17',
  mobile: '9876543210',
  name: 'Asha',
  email: '',
  pendingEmail: '',
  emailVerified: false,
  optional_map: {},
  preferences: { sms: { orders: true, recommendations: true, reminders: false } },
};

afterEach(() => {
  cleanup();
  resetCurrentUserForTests();
});

describe('CollectionPage', () => {
  it('knows the favourites collection only with type=rcv2', () => {
    expect(isFavouritesCollection('83951', 'rcv2')).toBe(true);
    expect(isFavouritesCollection('83951', null)).toBe(false);
    expect(isFavouritesCollection('80002', 'rcv2')).toBe(false);
  });

  it('lists a collection with its heading from the reply', async () => {
    const fetch = installFakeEdge({
      '/api/restaurants/list/v5': {
        totalRestaurants: 1,
        pageIndex: 0,
        pageOffset: { offset: 0, nextOffset: null },
        serviceability: 'SERVICEABLE',
        cards: [{ type: 'RESTAURANT', data: fixtures.restaurant() }],
        closedCards: [],
        collection: { id: '80002', title: 'Biryani', description: 'The best Biryani near you', imageId: 'collection-80002', link: '/collections/80002', restaurants: 1 },
      },
    });
    render(<CollectionPage collectionId="80002" type={null} location={koramangala} />);

    expect(await screen.findByRole('heading', { name: 'Biryani' })).toBeTruthy();
    expect(screen.getByText('The best Biryani near you')).toBeTruthy();
    expect(String(fetch.mock.calls[0]![0])).toContain('collection=80002');
    expect(String(fetch.mock.calls[0]![0])).toContain('page_type=DESKTOP_COLLECTION_LISTING');
  });

  it("says there's nothing here for an unknown or empty collection, without a retry", async () => {
    installFakeEdge({ '/api/restaurants/list/v5': reply(404, 404, 'Collection not found') });
    render(<CollectionPage collectionId="1" type={null} location={koramangala} />);
    expect(await screen.findByText("There's nothing here")).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it("lists the signed-in user's favourites through the listing's favourites collection", async () => {
    setCurrentUser(asha);
    const fetch = installFakeEdge({
      '/api/restaurants/list/v5': {
        totalRestaurants: 1,
        pageIndex: 0,
        pageOffset: { offset: 0, nextOffset: null },
        serviceability: 'SERVICEABLE',
        cards: [{ type: 'RESTAURANT', data: fixtures.restaurant({ name: 'Loved Place' }) }],
        closedCards: [],
        collection: { id: '83951', title: 'Your favourites', description: 'Restaurants you marked with a heart', imageId: 'collection-83951', link: '/collections/83951', restaurants: 1 },
      },
    });
    render(<CollectionPage collectionId="83951" type="rcv2" location={koramangala} />);

    expect(await screen.findByText('Loved Place')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Your favourites' })).toBeTruthy();
    const listed = fetch.mock.calls.map((c) => new URL(String(c[0]), 'http://localhost')).find((u) => u.pathname === '/api/restaurants/list/v5')!;
    expect(listed.searchParams.get('collection')).toBe('83951');
    expect([listed.searchParams.get('lat'), listed.searchParams.get('lng')]).toEqual(['12.9352', '77.6245']);
  });

  it("says there's nothing here when no favourite delivers here", async () => {
    setCurrentUser(asha);
    installFakeEdge({
      '/api/restaurants/list/v5': {
        totalRestaurants: 0,
        pageIndex: 0,
        pageOffset: { offset: 0, nextOffset: null },
        serviceability: 'SERVICEABLE',
        cards: [],
        closedCards: [],
        collection: { id: '83951', title: 'Your favourites', description: 'Restaurants you marked with a heart', imageId: 'collection-83951', link: '/collections/83951', restaurants: 0 },
      },
    });
    render(<CollectionPage collectionId="83951" type="rcv2" location={koramangala} />);
    expect(await screen.findByText("There's nothing here")).toBeTruthy();
  });

  it('asks a visitor to log in without calling the edge', async () => {
    const fetch = installFakeEdge({});
    const modes: string[] = [];
    const off = on('auth:open', ({ mode }) => modes.push(mode));
    render(<CollectionPage collectionId="83951" type="rcv2" location={koramangala} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Login' }));
    off();
    expect(modes).toEqual(['login']);
    expect(fetch).not.toHaveBeenCalled();
  });
});
