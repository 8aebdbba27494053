import { describe, expect, it } from 'vitest';
import { addRecentSearch, MAX_RECENT_SEARCHES, readRecentSearches, rememberSearch, RECENT_SEARCHES_KEY } from './recent-searches';

function memoryStorage(initial: Record<string, string> = {}): Storage {
  const data = new Map(Object.entries(initial));
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  };
}

describe('recent searches', () => {
  it('puts the newest first and keeps at most 5', () => {
    let list: string[] = [];
    for (const q of ['dosa', 'pizza', 'biryani', 'momos', 'paneer', 'rolls']) list = addRecentSearch(list, q);
    expect(list).toEqual(['rolls', 'paneer', 'momos', 'biryani', 'pizza']);
    expect(list).toHaveLength(MAX_RECENT_SEARCHES);
  });

  it('removes duplicates whatever their case, keeping the newest spelling first', () => {
    expect(addRecentSearch(['pizza', 'Biryani', 'dosa'], 'BIRYANI ')).toEqual(['BIRYANI', 'pizza', 'dosa']);
  });

  it('ignores a blank search', () => {
    expect(addRecentSearch(['pizza'], '   ')).toEqual(['pizza']);
  });

  it('is kept in local storage under the product prefix', () => {
    const store = memoryStorage();
    rememberSearch('dosa', store);
    rememberSearch('Pizza', store);
    expect(RECENT_SEARCHES_KEY).toBe('tfn_dweb_recentSearches');
    expect(JSON.parse(store.getItem(RECENT_SEARCHES_KEY) ?? '')).toEqual(['Pizza', 'dosa']);
    expect(readRecentSearches(store)).toEqual(['Pizza', 'dosa']);
  });

  it('survives garbage, an overlong list or a storage that refuses writes', () => {
    expect(readRecentSearches(memoryStorage({ [RECENT_SEARCHES_KEY]: '{not json' }))).toEqual([]);
    expect(readRecentSearches(memoryStorage({ [RECENT_SEARCHES_KEY]: '"pizza"' }))).toEqual([]);
    const long = JSON.stringify(['a', 'A', 'b', 3, 'c', 'd', 'e', 'f', 'g']);
    expect(readRecentSearches(memoryStorage({ [RECENT_SEARCHES_KEY]: long }))).toEqual(['a', 'b', 'c', 'd', 'e']);
    const full = { ...memoryStorage(), setItem: () => { throw new Error('quota'); } } as Storage;
    expect(rememberSearch('dosa', full)).toEqual(['dosa']);
    expect(readRecentSearches(null)).toEqual([]);
  });
});
