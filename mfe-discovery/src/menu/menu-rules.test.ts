import { fixtures } from '@tiffin/api-client/testing';
import type { MenuResponse } from '@tiffin/contract';
import { describe, expect, it } from 'vitest';
import { isCustomisable, itemPrice, matchesMenuSearch, menuSections, spiceIcons, struckOutPrice, unavailableText } from './menu-rules';

const item = fixtures.menuItem;

describe('menu search', () => {
  it('needs every word of the query to start a word of the name, in any case', () => {
    expect(matchesMenuSearch('Chicken Dum Biryani', 'biryani')).toBe(true);
    expect(matchesMenuSearch('Chicken Dum Biryani', 'CHICK bir')).toBe(true);
    expect(matchesMenuSearch('Chicken Dum Biryani', 'dum  chicken')).toBe(true);
    expect(matchesMenuSearch('Chicken Dum Biryani', 'iryani')).toBe(false);
    expect(matchesMenuSearch('Chicken Dum Biryani', 'chicken paneer')).toBe(false);
  });

  it('matches everything for an empty or blank query', () => {
    expect(matchesMenuSearch('Dal Makhani', '')).toBe(true);
    expect(matchesMenuSearch('Dal Makhani', '   ')).toBe(true);
  });

  it('treats special characters as plain characters, never as a pattern', () => {
    expect(matchesMenuSearch('Paneer Tikka (Dry)', '(dry')).toBe(true);
    expect(matchesMenuSearch('Paneer Tikka (Dry)', 'dry')).toBe(true);
    expect(matchesMenuSearch('C++ Burger', 'c++')).toBe(true);
    expect(matchesMenuSearch('Chicken Dum Biryani', '.*')).toBe(false);
    expect(matchesMenuSearch('Chicken Dum Biryani', '[')).toBe(false);
    expect(matchesMenuSearch('Chicken Dum Biryani', 'c.icken')).toBe(false);
    expect(() => matchesMenuSearch('Anything', '\\ ( [ * + ? {')).not.toThrow();
    expect(matchesMenuSearch('Fish $5 Special', '$5')).toBe(true);
    expect(matchesMenuSearch('Fish 5 Special', '$5')).toBe(false);
    expect(matchesMenuSearch('Biryani (Half)', 'half)')).toBe(true);
    expect(matchesMenuSearch('Biryani Half', 'half)')).toBe(false);
    expect(matchesMenuSearch('Chicken Dum Biryani', '^chicken')).toBe(false);
    expect(matchesMenuSearch('Chicken | Dum', '|')).toBe(true);
    expect(matchesMenuSearch('Chicken Dum', 'chicken|dum')).toBe(false);
    expect(matchesMenuSearch('Chicken Dum Biryani', 'chicken ?')).toBe(false);
  });

  it('needs every word, not just one', () => {
    expect(matchesMenuSearch('Chicken Dum Biryani', 'chicken mutton')).toBe(false);
    expect(matchesMenuSearch('Chicken Dum Biryani', 'icken')).toBe(false);
  });

  it('finds words after punctuation and in other scripts', () => {
    expect(matchesMenuSearch('Masala-Dosa', 'dosa')).toBe(true);
    expect(matchesMenuSearch('पनीर टिक्का', 'टिक')).toBe(true);
  });
});

describe('item price', () => {
  it('shows the final price', () => {
    expect(itemPrice(item({ price: 29900, defaultPrice: 24900, finalPrice: 24900 }))).toBe(24900);
    expect(itemPrice(item({ price: 29900, defaultPrice: 24900, finalPrice: 0 }))).toBe(24900);
  });

  it("takes the edge's struckOutPrice, but never strikes out the price charged or a non-positive one", () => {
    expect(struckOutPrice({ ...item({ price: 29900, defaultPrice: 24900, finalPrice: 24900 }), struckOutPrice: 29900 })).toBe(29900);
    expect(struckOutPrice({ ...item({ price: 29900, defaultPrice: 24900, finalPrice: 24900 }), struckOutPrice: null })).toBeNull();
    expect(struckOutPrice({ ...item({ finalPrice: 24900 }), struckOutPrice: 24900 })).toBeNull();
    expect(struckOutPrice({ ...item({ finalPrice: 24900 }), struckOutPrice: 0 })).toBeNull();
  });
});

describe('item flags', () => {
  it("trusts the edge's customisable flag (menu/quick leaves the groups out)", () => {
    const { addons: _a, variantsV2: _v, ...bare } = item();
    expect(isCustomisable({ ...bare, customisable: true } as never)).toBe(true);
    expect(isCustomisable({ ...item(), customisable: false })).toBe(false);
  });

  it('says when an out-of-stock dish comes back, else that it is not available', () => {
    expect(unavailableText({ nextAvailableAtMessage: 'Next available at 7:00 PM', outOfStockMessage: 'This item is not available.' })).toBe('Next available at 7:00 PM');
    expect(unavailableText({ nextAvailableAtMessage: null, outOfStockMessage: null })).toBe('This item is not available.');
  });

  it('shows one spice icon for MEDIUMSPICY and two for VERYSPICY', () => {
    expect([spiceIcons('MEDIUMSPICY'), spiceIcons('VERYSPICY'), spiceIcons(undefined), spiceIcons('MILD')]).toEqual([1, 2, 0, 0]);
  });
});

describe('menu sections', () => {
  const menu: MenuResponse['menu'] = {
    widgets: [
      { type: 'RECOMMENDED', id: 'recommended', name: 'Recommended', entities: [{ id: '1' }, { id: '2' }], widgets: [] },
      {
        type: 'CATEGORY',
        id: 'c-1',
        name: 'Biryani',
        entities: [{ id: '1' }],
        widgets: [{ type: 'CATEGORY', id: 'c-1-1', name: 'Veg Biryani', entities: [{ id: '3' }, { id: 'missing' }], widgets: [] }],
      },
    ],
    items: {
      '1': item({ id: '1', name: 'Chicken Dum Biryani', vegType: 'NONVEG', isVeg: 0 }),
      '2': item({ id: '2', name: 'Egg Curry', vegType: 'EGG', isVeg: 0 }),
      '3': item({ id: '3', name: 'Veg Dum Biryani', vegType: 'VEG', isVeg: 1 }),
    },
    itemCount: 3,
  };

  it("keeps the server's order with sub-categories and counts", () => {
    const sections = menuSections(menu, { vegOnly: false, query: '' });
    expect(sections.map((s) => [s.name, s.count])).toEqual([
      ['Recommended', 2],
      ['Biryani', 2],
    ]);
    expect(sections[1]!.children.map((c) => [c.name, c.items.map((i) => i.id)])).toEqual([['Veg Biryani', ['3']]]);
  });

  it('keeps only veg dishes with the veg filter and drops emptied sections', () => {
    const sections = menuSections(menu, { vegOnly: true, query: '' });
    expect(sections.map((s) => s.name)).toEqual(['Biryani']);
    expect(sections[0]!.items).toEqual([]);
    expect(sections[0]!.children[0]!.items.map((i) => i.name)).toEqual(['Veg Dum Biryani']);
  });

  it('applies the search to every section', () => {
    expect(menuSections(menu, { vegOnly: false, query: 'egg' }).map((s) => [s.name, s.count])).toEqual([['Recommended', 1]]);
    expect(menuSections(menu, { vegOnly: false, query: 'pizza' })).toEqual([]);
  });
});
