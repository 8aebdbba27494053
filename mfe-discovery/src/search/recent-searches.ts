/**
 * Recent searches: kept in the browser's local storage under the
 * product's prefix (`tfn_dweb_recentSearches`), at most 5, newest first, duplicates that differ
 * only in case removed (the newest spelling kept). Storage can be missing, full or hold garbage;
 * the list then lasts for the page only.
 */
import { storageKey } from '@tiffin/contract';

export const RECENT_SEARCHES_KEY = storageKey('recentSearches');
/** Recent searches max 5. */
export const MAX_RECENT_SEARCHES = 5;

/** `query` put first in `list`, without its case-insensitive duplicates, at most 5. */
export function addRecentSearch(list: readonly string[], query: string): string[] {
  const text = query.trim();
  if (!text) return list.slice(0, MAX_RECENT_SEARCHES);
  const key = text.toLowerCase();
  return [text, ...list.filter((q) => q.trim().toLowerCase() !== key)].slice(0, MAX_RECENT_SEARCHES);
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The stored list, cleaned by the same rule (a hand-edited or older list cannot break the page). */
export function readRecentSearches(store: Storage | null = storage()): string[] {
  try {
    const parsed: unknown = JSON.parse(store?.getItem(RECENT_SEARCHES_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    const strings = parsed.filter((q): q is string => typeof q === 'string' && q.trim() !== '');
    return strings.reduceRight<string[]>((list, q) => addRecentSearch(list, q), []);
  } catch {
    return [];
  }
}

/** Remembers `query` and returns the new list. */
export function rememberSearch(query: string, store: Storage | null = storage()): string[] {
  const list = addRecentSearch(readRecentSearches(store), query);
  try {
    store?.setItem(RECENT_SEARCHES_KEY, JSON.stringify(list));
  } catch {
    // Not remembered across pages; the list still shows for this one.
  }
  return list;
}
