/**
 * The listing's paging state: the first page replaces everything, later
 * pages append to the open and closed lists. Open restaurants always come before closed ones, a
 * restaurant seen on an earlier page is not repeated, and paging stops when `nextOffset` is null.
 */
import type { ListingResponse, Restaurant, Serviceability } from '@tiffin/contract';
import { isOpen } from './restaurant-format';

export interface ListingPages {
  open: Restaurant[];
  closed: Restaurant[];
  totalRestaurants: number;
  serviceability: Serviceability;
  /** Offset of the next page; null once the last page is in. */
  nextOffset: number | null;
}

function split(page: ListingResponse): { open: Restaurant[]; closed: Restaurant[] } {
  const all = [...(page.cards ?? []), ...(page.closedCards ?? [])]
    .filter((card) => card?.type === 'RESTAURANT' && card.data)
    .map((card) => card.data);
  return { open: all.filter(isOpen), closed: all.filter((r) => !isOpen(r)) };
}

export function firstPage(page: ListingResponse): ListingPages {
  const { open, closed } = split(page);
  return {
    open: dedupe(open),
    closed: dedupe(closed),
    totalRestaurants: page.totalRestaurants ?? open.length + closed.length,
    serviceability: page.serviceability ?? 'SERVICEABLE',
    nextOffset: page.pageOffset?.nextOffset ?? null,
  };
}

export function appendPage(state: ListingPages, page: ListingResponse): ListingPages {
  const { open, closed } = split(page);
  const seen = new Set([...state.open, ...state.closed].map((r) => r.id));
  const fresh = (r: Restaurant) => !seen.has(r.id);
  const nextOffset = page.pageOffset?.nextOffset ?? null;
  return {
    ...state,
    open: [...state.open, ...dedupe(open.filter(fresh))],
    closed: [...state.closed, ...dedupe(closed.filter(fresh))],
    // A next offset that does not move forward would page forever: treat it as the end.
    nextOffset: nextOffset !== null && state.nextOffset !== null && nextOffset <= state.nextOffset ? null : nextOffset,
  };
}

function dedupe(restaurants: Restaurant[]): Restaurant[] {
  const seen = new Set<string>();
  return restaurants.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)));
}
