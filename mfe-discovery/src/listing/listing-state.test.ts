import { fixtures } from '@tiffin/api-client/testing';
import type { ListingResponse, Restaurant } from '@tiffin/contract';
import { describe, expect, it } from 'vitest';
import { appendPage, firstPage } from './listing-state';

const open = (id: string) => fixtures.restaurant({ id, name: `Open ${id}` });
const closed = (id: string) => fixtures.restaurant({ id, name: `Closed ${id}`, availability: { opened: false } });

function page(cards: Restaurant[], closedCards: Restaurant[], nextOffset: number | null, total = 40): ListingResponse {
  return fixtures.listing({
    totalRestaurants: total,
    pageIndex: 0,
    pageOffset: { offset: 0, nextOffset },
    serviceability: 'SERVICEABLE',
    cards: cards.map((data) => ({ type: 'RESTAURANT', data })),
    closedCards: closedCards.map((data) => ({ type: 'RESTAURANT', data })),
  });
}

const ids = (list: Restaurant[]) => list.map((r) => r.id);

describe('listing pages', () => {
  it('keeps the count, the next offset and open before closed', () => {
    const state = firstPage(page([open('1'), closed('9'), open('2')], [closed('8')], 15));
    expect(ids(state.open)).toEqual(['1', '2']);
    expect(ids(state.closed)).toEqual(['9', '8']);
    expect(state).toMatchObject({ totalRestaurants: 40, nextOffset: 15, serviceability: 'SERVICEABLE' });
  });

  it('appends later pages to the open and closed lists, skipping restaurants already shown', () => {
    const first = firstPage(page([open('1'), open('2')], [closed('8')], 15));
    const second = appendPage(first, page([open('2'), open('3')], [closed('7')], 30));
    expect(ids(second.open)).toEqual(['1', '2', '3']);
    expect(ids(second.closed)).toEqual(['8', '7']);
    expect(second.nextOffset).toBe(30);
  });

  it('stops at the last page (nextOffset null) and on an offset that does not move forward', () => {
    const first = firstPage(page([open('1')], [], 15));
    expect(appendPage(first, page([open('2')], [], null)).nextOffset).toBeNull();
    expect(appendPage(first, page([open('2')], [], 15)).nextOffset).toBeNull();
  });

  it('keeps NON_SERVICEABLE so the page can say no delivery here', () => {
    expect(firstPage({ ...page([], [], null, 0), serviceability: 'NON_SERVICEABLE' }).serviceability).toBe('NON_SERVICEABLE');
  });
});
