/**
 * The listing's refinements (sort and filters) as pure rules: which quick filters
 * exist, toggling them, and when the filter collections may show. Every rule is unit-tested.
 */
import type { CollectionCardJson, CostRangeKey, ListingFilters, ListingSortKey } from '@tiffin/contract';

export interface Refinement {
  sortBy: ListingSortKey;
  filters: ListingFilters;
}

export const DEFAULT_REFINEMENT: Refinement = { sortBy: 'RELEVANCE', filters: {} };

/** Sort options when the edge has not sent its own (same keys and titles as the edge). */
export const DEFAULT_SORTS: Array<{ key: ListingSortKey; title: string }> = [
  { key: 'RELEVANCE', title: 'Relevance (Default)' },
  { key: 'DELIVERY_TIME', title: 'Delivery Time' },
  { key: 'RATING', title: 'Rating' },
  { key: 'COST_LOW_TO_HIGH', title: 'Cost: Low to High' },
  { key: 'COST_HIGH_TO_LOW', title: 'Cost: High to Low' },
];

type FlagFilter = 'fastDelivery' | 'rating4Plus' | 'pureVeg' | 'offers';

/** The quick filters, in the order the chips show. */
export const FLAG_FILTERS: Array<{ key: FlagFilter; label: string }> = [
  { key: 'fastDelivery', label: 'Fast Delivery' },
  { key: 'rating4Plus', label: 'Ratings 4.0+' },
  { key: 'pureVeg', label: 'Pure Veg' },
  { key: 'offers', label: 'Offers' },
];

export const COST_RANGES: Array<{ key: CostRangeKey; title: string }> = [
  { key: 'UNDER_300', title: 'Less than ₹300' },
  { key: '300_TO_600', title: '₹300 - ₹600' },
  { key: 'OVER_600', title: 'Greater than ₹600' },
];

export function toggleFlag(filters: ListingFilters, key: FlagFilter): ListingFilters {
  const next = { ...filters };
  if (next[key]) delete next[key];
  else next[key] = true;
  return next;
}

function toggleIn<T>(list: T[] | undefined, value: T): T[] {
  const current = list ?? [];
  return current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
}

export function toggleCostRange(filters: ListingFilters, key: CostRangeKey): ListingFilters {
  const costRanges = toggleIn(filters.costRanges, key);
  const { costRanges: _drop, ...rest } = filters;
  return costRanges.length ? { ...rest, costRanges } : rest;
}

export function toggleCuisine(filters: ListingFilters, cuisine: string): ListingFilters {
  const cuisines = toggleIn(filters.cuisines, cuisine);
  const { cuisines: _drop, ...rest } = filters;
  return cuisines.length ? { ...rest, cuisines } : rest;
}

/** How many filters are on (each cost range and cuisine counts once). */
export function activeFilterCount(filters: ListingFilters): number {
  return FLAG_FILTERS.filter((f) => filters[f.key]).length + (filters.costRanges?.length ?? 0) + (filters.cuisines?.length ?? 0);
}

export function isDefault(r: Refinement): boolean {
  return r.sortBy === 'RELEVANCE' && activeFilterCount(r.filters) === 0;
}

/** Filter collections show only with at least 4 cards, at least 4 of them with a
 * link, and at least 3 restaurants. */
export function showFilterCollections(cards: CollectionCardJson[] | undefined, totalRestaurants: number): boolean {
  const list = cards ?? [];
  return list.length >= 4 && list.filter((c) => !!c.link?.trim()).length >= 4 && totalRestaurants >= 3;
}
