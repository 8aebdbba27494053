import { fixtures } from '@tiffin/api-client/testing';
import type { MenuItem } from '@tiffin/contract';
import { describe, expect, it } from 'vitest';
import {
  chooseVariation,
  customisedUnitPrice,
  initialCustomisation,
  customisationSteps,
  customisationSummary,
  fromSelection,
  requirementLabel,
  stepLabel,
  toggleAddon,
  variantFormat,
  variantGroups,
  toItemSelection,
  validateCustomisation,
  type Customisation,
} from './customisation';

/** Biryani: base ₹249; Size Half (default) / Full (+₹100, or ₹329 by pricing model with Spicy). */
function biryani(overrides: Partial<MenuItem> = {}): MenuItem {
  return fixtures.menuItem({
    price: 29900,
    defaultPrice: 24900,
    finalPrice: 24900,
    variantsV2: {
      variant_groups: [
        {
          group_id: 'size',
          name: 'Size',
          variations: [
            { id: 'half', name: 'Half', price: 0, default: 1, inStock: 1, isVeg: 0 },
            { id: 'full', name: 'Full', price: 10000, default: 0, inStock: 1, isVeg: 0 },
          ],
        },
        {
          group_id: 'heat',
          name: 'Heat',
          variations: [
            { id: 'mild', name: 'Mild', price: 0, default: 0, inStock: 1, isVeg: 0 },
            { id: 'spicy', name: 'Spicy', price: 500, default: 0, inStock: 1, isVeg: 0 },
          ],
        },
      ],
      pricing_models: [
        {
          variations: [
            { group_id: 'size', variation_id: 'full' },
            { group_id: 'heat', variation_id: 'spicy' },
          ],
          price: 32900,
        },
      ],
    },
    addons: [
      {
        group_id: 'extras',
        group_name: 'Extras',
        minAddons: 1,
        maxAddons: 2,
        maxFreeAddons: 0,
        choices: [
          { id: 'raita', name: 'Raita', price: 3000, inStock: 1, isVeg: 1 },
          { id: 'salan', name: 'Salan', price: 4000, inStock: 1, isVeg: 1 },
          { id: 'egg', name: 'Boiled egg', price: 2000, inStock: 1, isVeg: 0 },
        ],
      },
      {
        group_id: 'sides',
        group_name: 'Sides',
        minAddons: 0,
        maxAddons: 0,
        maxFreeAddons: 1,
        choices: [
          { id: 'onion', name: 'Onion', price: 0, inStock: 1, isVeg: 1 },
          { id: 'lemon', name: 'Lemon', price: 0, inStock: 1, isVeg: 1 },
          { id: 'papad', name: 'Papad', price: 1500, inStock: 1, isVeg: 1 },
          { id: 'pickle', name: 'Pickle', price: 1000, inStock: 1, isVeg: 1 },
        ],
      },
    ],
    ...overrides,
  });
}

function tick(item: MenuItem, c: Customisation, group: string, ...choices: string[]): Customisation {
  return choices.reduce((acc, choice) => toggleAddon(item, acc, group, choice).customisation, c);
}

describe('initial customisation', () => {
  it('preselects the default variation of each group, else its first', () => {
    expect(initialCustomisation(biryani())).toEqual({ variants: { size: 'half', heat: 'mild' }, addons: {} });
  });
});

describe('running total', () => {
  it('starts at the final price for the default combination', () => {
    expect(customisedUnitPrice(biryani(), initialCustomisation(biryani()))).toBe(24900);
  });

  it('adds variation prices to the base when no pricing model matches', () => {
    const item = biryani();
    expect(customisedUnitPrice(item, chooseVariation(initialCustomisation(item), 'size', 'full'))).toBe(34900);
  });

  it('uses the matching pricing model instead of the base price', () => {
    const item = biryani();
    const c = chooseVariation(chooseVariation(initialCustomisation(item), 'size', 'full'), 'heat', 'spicy');
    expect(customisedUnitPrice(item, c)).toBe(32900);
  });

  it('adds the chosen add-ons', () => {
    const item = biryani();
    expect(customisedUnitPrice(item, tick(item, initialCustomisation(item), 'extras', 'raita', 'salan'))).toBe(24900 + 3000 + 4000);
  });

  it('makes paid add-ons free in menu order once zero-priced ones leave free allowance', () => {
    const item = biryani();
    const base = initialCustomisation(item);
    // Allowance 1: Pickle (listed after Papad) was ticked first, but Papad is made free.
    expect(customisedUnitPrice(item, tick(item, base, 'sides', 'pickle', 'papad'))).toBe(24900 + 1000);
    // Onion (zero-priced) uses the allowance: both paid ones are charged.
    expect(customisedUnitPrice(item, tick(item, base, 'sides', 'onion', 'papad', 'pickle'))).toBe(24900 + 1500 + 1000);
  });
});

describe('add-on limits and their messages', () => {
  it('refuses a tick beyond the maximum with the max message', () => {
    const item = biryani();
    const two = tick(item, initialCustomisation(item), 'extras', 'raita', 'salan');
    const third = toggleAddon(item, two, 'extras', 'egg');
    expect(third.error).toBe('You can select a maximum of 2 Extras.');
    expect(third.customisation).toBe(two);
  });

  it('refuses more zero-priced choices than the free maximum', () => {
    const item = biryani();
    const one = tick(item, initialCustomisation(item), 'sides', 'onion');
    expect(toggleAddon(item, one, 'sides', 'lemon').error).toBe('You can select a maximum of 1 free Sides.');
    expect(toggleAddon(item, one, 'sides', 'papad').error).toBeNull();
  });

  it('unticks without a message', () => {
    const item = biryani();
    const one = tick(item, initialCustomisation(item), 'extras', 'raita');
    expect(toggleAddon(item, one, 'extras', 'raita')).toEqual({ customisation: { ...one, addons: { extras: [] } }, error: null });
  });

  it('reports a group below its minimum with the min message and the group id', () => {
    const item = biryani();
    expect(validateCustomisation(item, initialCustomisation(item))).toEqual([{ groupId: 'extras', message: 'You must select at least 1 Extras' }]);
    expect(validateCustomisation(item, tick(item, initialCustomisation(item), 'extras', 'raita'))).toEqual([]);
  });

  it('reports a group over its maximum (a customisation built elsewhere)', () => {
    const item = biryani();
    const over: Customisation = { variants: {}, addons: { extras: ['raita', 'salan', 'egg'] } };
    expect(validateCustomisation(item, over)).toEqual([{ groupId: 'extras', message: 'You can select a maximum of 2 Extras.' }]);
  });

  it("labels groups '(optional)', '({chosen}/{N} required)' for exactly N, or '(atleast N)'", () => {
    expect(requirementLabel({ minAddons: 0, maxAddons: 3 })).toBe('(optional)');
    expect(requirementLabel({ minAddons: 2, maxAddons: 0 })).toBe('(atleast 2)');
    expect(requirementLabel({ minAddons: 2, maxAddons: 4 })).toBe('(atleast 2)');
    expect(requirementLabel({ minAddons: 1, maxAddons: 1 }, 0)).toBe('(0/1 required)');
    expect(requirementLabel({ minAddons: 2, maxAddons: 2 }, 1)).toBe('(1/2 required)');
    expect(requirementLabel({ minAddons: 2, maxAddons: 2 }, 2)).toBe('(2/2 required)');
  });
});

describe('cart selection', () => {
  it('names every variant group and the add-ons in menu order, never a price', () => {
    const item = biryani();
    const c = tick(item, chooseVariation(initialCustomisation(item), 'size', 'full'), 'extras', 'salan', 'raita');
    expect(toItemSelection(item, c)).toEqual({
      menu_item_id: '88001',
      quantity: 1,
      variants: [
        { group_id: 'size', variation_id: 'full' },
        { group_id: 'heat', variation_id: 'mild' },
      ],
      addons: [
        { group_id: 'extras', choice_id: 'raita' },
        { group_id: 'extras', choice_id: 'salan' },
      ],
    });
  });
});

describe('V1 and V2 variants (V2 applies when it has groups)', () => {
  const sizeV1 = {
    variant_groups: [
      {
        group_id: 'qty',
        name: 'Quantity',
        variations: [
          { id: 'q1', name: '6 pcs', price: 0, default: 1, inStock: 1, isVeg: 1 },
          { id: 'q2', name: '12 pcs', price: 15000, default: 0, inStock: 1, isVeg: 1 },
        ],
      },
    ],
  };

  it('uses V1 groups when there is no V2, and adds the chosen variation price to the base', () => {
    const item = { ...fixtures.menuItem({ finalPrice: 18000, defaultPrice: 18000, price: 18000, addons: [], variantsV2: null }), variants: sizeV1 };
    expect(variantFormat(item)).toBe('V1');
    expect(variantGroups(item).map((g) => g.group_id)).toEqual(['qty']);
    const c = initialCustomisation(item);
    expect(customisedUnitPrice(item, c)).toBe(18000);
    expect(customisedUnitPrice(item, chooseVariation(c, 'qty', 'q2'))).toBe(33000);
    expect(toItemSelection(item, chooseVariation(c, 'qty', 'q2')).variants).toEqual([{ group_id: 'qty', variation_id: 'q2' }]);
  });

  it('prefers V2 when both are present, and has no format without groups', () => {
    const item = { ...biryani(), variants: sizeV1 };
    expect(variantFormat(item)).toBe('V2');
    expect(variantGroups(item).map((g) => g.group_id)).toEqual(['size', 'heat']);
    expect(variantFormat(fixtures.menuItem({ variantsV2: null, addons: [] }))).toBeNull();
  });
});

describe('steps', () => {
  it('has two steps (variants, then add-ons) only when an item has both', () => {
    expect(customisationSteps(biryani())).toEqual(['variants', 'addons']);
    expect(customisationSteps(biryani({ addons: [] }))).toEqual(['variants']);
    expect(customisationSteps(biryani({ variantsV2: null }))).toEqual(['addons']);
    expect(stepLabel(0, 2)).toBe('Step 1/2');
    expect(stepLabel(1, 2)).toBe('Step 2/2');
  });
});

describe('repeat last', () => {
  it('turns a cart selection back into choices, priced and named like the modal', () => {
    const item = biryani();
    const selection = {
      variants: [
        { group_id: 'size', variation_id: 'full' },
        { group_id: 'heat', variation_id: 'spicy' },
      ],
      addons: [
        { group_id: 'extras', choice_id: 'salan' },
        { group_id: 'extras', choice_id: 'raita' },
      ],
    };
    const c = fromSelection(selection);
    expect(customisedUnitPrice(item, c)).toBe(32900 + 3000 + 4000);
    expect(customisationSummary(item, c)).toBe('Full, Spicy, Raita, Salan');
  });
});
