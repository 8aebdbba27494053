import { describe, expect, it } from 'vitest';
import { cartKey } from './cart-key';

describe('cartKey', () => {
  it('is the item id, then the variant and add-on ids sorted together (the server rule)', () => {
    expect(
      cartKey({ menu_item_id: '88001', variants: [{ group_id: 'vg1', variation_id: 'v1' }], addons: [{ group_id: 'g1', choice_id: 'ch1' }] }),
    ).toBe('88001|ch1|v1');
  });

  it('does not depend on the order the choices were made in', () => {
    const a = cartKey({ menu_item_id: '7', variants: [{ group_id: 'x', variation_id: 'b' }], addons: [{ group_id: 'g', choice_id: 'd' }, { group_id: 'g', choice_id: 'a' }] });
    const b = cartKey({ menu_item_id: '7', variants: [{ group_id: 'x', variation_id: 'b' }], addons: [{ group_id: 'g', choice_id: 'a' }, { group_id: 'g', choice_id: 'd' }] });
    expect(a).toBe('7|a|b|d');
    expect(b).toBe(a);
  });

  it('is the bare item id when nothing is chosen', () => {
    expect(cartKey({ menu_item_id: '88001' })).toBe('88001');
    expect(cartKey({ menu_item_id: '88001', addons: [], variants: [] })).toBe('88001');
  });

  it('tells different items and different choices apart', () => {
    expect(cartKey({ menu_item_id: '1', addons: [{ group_id: 'g', choice_id: 'c1' }] })).not.toBe(
      cartKey({ menu_item_id: '1', addons: [{ group_id: 'g', choice_id: 'c2' }] }),
    );
    expect(cartKey({ menu_item_id: '1' })).not.toBe(cartKey({ menu_item_id: '2' }));
  });
});
