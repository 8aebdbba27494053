import { storageKey } from '@tiffin/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { createPreferences, cutlerySelected, sanitiseNote } from './preferences';

afterEach(() => {
  localStorage.clear();
  document.cookie = 'deliveryAddressId=; Max-Age=0; Path=/';
});

describe('cutlery', () => {
  it('is not selected by default, and applies only to the restaurant it was chosen for', () => {
    expect(cutlerySelected(null, '1042')).toBe(false);
    const choice = { restaurantId: '1042', selected: true };
    expect(cutlerySelected(choice, '1042')).toBe(true);
    expect(cutlerySelected(choice, '2001')).toBe(false);
  });

  it('is forced to not selected when the cart has no cutlery option', () => {
    expect(cutlerySelected({ restaurantId: '1042', selected: true }, '1042', false)).toBe(false);
  });
});

describe('order note', () => {
  it('removes &, < and > and caps the length at 200', () => {
    expect(sanitiseNote('<b>Salt & pepper</b>')).toBe('bSalt  pepper/b');
    expect(sanitiseNote('x'.repeat(500))).toHaveLength(200);
  });
});

describe('the delivery address id', () => {
  it('survives a reload (a new instance reads storage) and is in the cookie the edge reads', () => {
    createPreferences().setDeliveryAddressId('a1');
    expect(createPreferences().getPreferences()).toEqual({ deliveryAddressId: 'a1' });
    expect(localStorage.getItem(storageKey('deliveryAddressId'))).toBe('a1');
    expect(document.cookie).toContain('deliveryAddressId=a1');
  });

  it('is forgotten (clearing the cart) from storage and cookie, telling subscribers', () => {
    const prefs = createPreferences();
    prefs.setDeliveryAddressId('a1');
    let calls = 0;
    prefs.subscribePreferences(() => (calls += 1));
    prefs.forgetDeliveryAddress();
    expect(prefs.getPreferences().deliveryAddressId).toBeNull();
    expect(localStorage.getItem(storageKey('deliveryAddressId'))).toBeNull();
    expect(document.cookie).not.toContain('deliveryAddressId=a1');
    expect(calls).toBe(1);
  });
});
