import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import { on, type UserLocation } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CollectionPage, isFavouritesCollection } from './CollectionPage';

const koramangala: UserLocation = { lat: 12.9352, lng: 77.6245, address: 'Koramangala', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

afterEach(cleanup);

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

  it('shows the favourites, and asks a guest to log in', async () => {
    installFakeEdge({ '/api/profile/favourites': { restaurants: [fixtures.restaurant({ name: 'Loved Place' })] } });
    render(<CollectionPage collectionId="83951" type="rcv2" location={koramangala} />);
    expect(await screen.findByText('Loved Place')).toBeTruthy();
    cleanup();

    installFakeEdge({ '/api/profile/favourites': reply(401, 999, 'Please login to continue.') });
    const modes: string[] = [];
    const off = on('auth:open', ({ mode }) => modes.push(mode));
    render(<CollectionPage collectionId="83951" type="rcv2" location={koramangala} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Login' }));
    off();
    expect(modes).toEqual(['login']);
  });
});
