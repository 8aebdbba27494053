import { describe, expect, it } from 'vitest';
import type { CollectionCardJson } from '@tiffin/contract';
import { activeFilterCount, isDefault, showFilterCollections, toggleCostRange, toggleCuisine, toggleFlag } from './refine';

const card = (id: number, link = `/collections/${id}`): CollectionCardJson => ({ id: String(id), title: `C${id}`, description: '', imageId: '', link, restaurants: 3 });

describe('listing refinements', () => {
  it('toggles flags, cost ranges and cuisines on and off', () => {
    let f = toggleFlag({}, 'pureVeg');
    expect(f).toEqual({ pureVeg: true });
    f = toggleCostRange(f, '300_TO_600');
    f = toggleCuisine(f, 'Biryani');
    expect(activeFilterCount(f)).toBe(3);
    f = toggleCuisine(toggleCostRange(toggleFlag(f, 'pureVeg'), '300_TO_600'), 'Biryani');
    expect(f).toEqual({});
    expect(isDefault({ sortBy: 'RELEVANCE', filters: f })).toBe(true);
    expect(isDefault({ sortBy: 'RATING', filters: f })).toBe(false);
  });

  it('shows filter collections only with 4 linked cards and 3 restaurants', () => {
    const four = [1, 2, 3, 4].map((i) => card(i));
    expect(showFilterCollections(four, 3)).toBe(true);
    expect(showFilterCollections(four, 2)).toBe(false);
    expect(showFilterCollections(four.slice(0, 3), 10)).toBe(false);
    expect(showFilterCollections([...four.slice(0, 3), card(5, ' ')], 10)).toBe(false);
    expect(showFilterCollections(undefined, 10)).toBe(false);
  });
});
