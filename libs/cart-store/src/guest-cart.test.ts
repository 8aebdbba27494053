import type { Cart } from '@tiffin/contract';
import { describe, expect, it } from 'vitest';
import { emptyCart } from './draft';
import {
  createGuestCartCopy,
  GUEST_CART_KEY,
  guestCartCopyOf,
  parseGuestCartCopy,
  restoreRequest,
  serializeGuestCartCopy,
  type CopyStorage,
  type GuestCartCopy,
} from './guest-cart';

const restaurant = { id: '1042', name: 'Meghana Foods', area_name: 'Koramangala', cloudinary_image_id: 'r', opened: true };
const biryaniLine = {
  cart_key: '88001_ch1_v1',
  menu_item_id: '88001',
  name: 'Chicken Biryani',
  quantity: 2,
  isVeg: 0,
  in_stock: 1,
  base_price: 32000,
  final_price: 64000,
  price_changed: false,
  previous_price: null,
  addons: [{ group_id: 'g1', choice_id: 'ch1', name: 'Raita', price: 3000 }],
  variants: [{ group_id: 'vg1', variation_id: 'v1', group_name: 'Size', name: 'Full', price: 0 }],
};
const cart: Cart = { ...emptyCart('c1'), restaurant_details: restaurant, cartItems: [biryaniLine], cartItemsCount: 2, item_total: 64000, address_id: null };

const copy: GuestCartCopy = {
  restaurantId: '1042',
  addressId: null,
  cartItems: [{ menu_item_id: '88001', quantity: 2, addons: [{ group_id: 'g1', choice_id: 'ch1' }], variants: [{ group_id: 'vg1', variation_id: 'v1' }] }],
};

function memory(): CopyStorage & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

describe("a guest's cart copy", () => {
  it('keeps the choices of a cart (restaurant, address, item ids, quantities, variant and add-on ids) and never a name or price', () => {
    expect(guestCartCopyOf(cart)).toEqual(copy);
    expect(guestCartCopyOf({ ...cart, address_id: 'a7' })?.addressId).toBe('a7');

    const stored = serializeGuestCartCopy(copy);
    expect(stored).not.toMatch(/price|Biryani|Meghana|64000|32000/);
  });

  it('is nothing for an empty cart', () => {
    expect(guestCartCopyOf({ ...cart, restaurant_details: null, cartItems: [] })).toBeNull();
    expect(guestCartCopyOf({ ...cart, cartItems: [] })).toBeNull();
  });

  it('is restored with the normal update body, the address only when there is one', () => {
    expect(restoreRequest(copy)).toEqual({ restaurantId: '1042', cartItems: copy.cartItems });
    expect(restoreRequest({ ...copy, addressId: 'a7' })).toMatchObject({ address_id: 'a7' });
  });

  it('reads back what it wrote', () => {
    expect(parseGuestCartCopy(serializeGuestCartCopy(copy))).toEqual(copy);
  });

  it('reads nothing from malformed, foreign-version or empty values', () => {
    const good = JSON.parse(serializeGuestCartCopy(copy)) as Record<string, unknown>;
    const line = copy.cartItems[0]!;
    const variants: Array<[string, unknown]> = [
      ['not JSON', '{'],
      ['null', 'null'],
      ['another version', { ...good, v: 1 }],
      ['no restaurant', { ...good, restaurantId: '' }],
      ['no lines', { ...good, cartItems: [] }],
      ['lines not a list', { ...good, cartItems: {} }],
      ['quantity 0', { ...good, cartItems: [{ ...line, quantity: 0 }] }],
      ['fractional quantity', { ...good, cartItems: [{ ...line, quantity: 1.5 }] }],
      ['quantity as text', { ...good, cartItems: [{ ...line, quantity: '2' }] }],
      ['no item id', { ...good, cartItems: [{ ...line, menu_item_id: '' }] }],
      ['an add-on without a choice', { ...good, cartItems: [{ ...line, addons: [{ group_id: 'g1' }] }] }],
      ['variants not a list', { ...good, cartItems: [{ ...line, variants: 'v1' }] }],
      ['too many lines', { ...good, cartItems: Array.from({ length: 51 }, () => line) }],
    ];
    for (const [why, value] of variants) {
      expect(parseGuestCartCopy(typeof value === 'string' ? value : JSON.stringify(value)), why).toBeNull();
    }
    expect(parseGuestCartCopy(null)).toBeNull();
  });

  it('drops a stored price or name rather than carrying it', () => {
    const withPrices = { v: 2, restaurantId: 1042, addressId: null, cartItems: [{ menu_item_id: 88001, quantity: 1, final_price: 1, name: 'x' }] };
    expect(parseGuestCartCopy(JSON.stringify(withPrices))).toEqual({
      restaurantId: '1042',
      addressId: null,
      cartItems: [{ menu_item_id: '88001', quantity: 1, addons: [], variants: [] }],
    });
  });

  it('lives under the cart version key and survives failing storage', () => {
    const storage = memory();
    const store = createGuestCartCopy(() => storage);
    store.write(copy);
    expect([...storage.values.keys()]).toEqual([GUEST_CART_KEY]);
    expect(GUEST_CART_KEY).toBe('tfn_dweb_cartV2');
    expect(store.read()).toEqual(copy);
    store.write(null);
    expect(store.read()).toBeNull();
    store.write(copy);
    store.clear();
    expect(storage.values.size).toBe(0);

    const broken = createGuestCartCopy(() => ({
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    }));
    expect(() => broken.write(copy)).not.toThrow();
    expect(() => broken.clear()).not.toThrow();
    expect(broken.read()).toBeNull();
    expect(createGuestCartCopy(() => null).read()).toBeNull();
  });
});
