/**
 * Search results cached per tab: one entry per (query, location, tab), so
 * going back to a tab shows it at once and only a tab never opened is fetched. A new query's
 * cards replace the older cards of the same tab; the cache is bounded so a long session of
 * searches cannot grow it without end.
 */
import type { SearchResultsResponse, SearchTab } from '@tiffin/contract';

/** Most (query, tab) results kept; the oldest goes first. */
const MAX_CACHED_RESULTS = 20;

export function cacheKey(query: string, lat: number, lng: number, tab: SearchTab): string {
  return `${query.trim().toLowerCase()}|${lat},${lng}|${tab}`;
}

export class SearchCache {
  private readonly entries = new Map<string, SearchResultsResponse>();

  get(key: string): SearchResultsResponse | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: SearchResultsResponse): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > MAX_CACHED_RESULTS) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

