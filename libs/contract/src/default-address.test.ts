import { afterEach, describe, expect, it } from 'vitest';
import {
  addressToLocation,
  applyDefaultAddress,
  chooseDefaultAddress,
  DEFAULT_ADDRESS_APPLIED_COOKIE,
  DEFAULT_ADDRESS_DECLINED_COOKIE,
  declineDefaultAddress,
  isWorkingHours,
  shouldApplyDefaultAddress,
} from './default-address';
import type { Address } from './edge-types';
import { on } from './events';
import type { UserLocation } from './events';
import { acknowledgeDefaultAddressHint, getUserLocation, parseUserLocation, setUserLocation } from './user-location';

function address(id: string, annotation: Address['annotation'], overrides: Partial<Address> = {}): Address {
  return {
    id,
    annotation,
    address: `Flat ${id}, 12 1st Cross, Koramangala`,
    area: 'Koramangala',
    flat_no: `Flat ${id}`,
    landmark: '',
    lat: 12.93,
    lng: 77.62,
    mobile: '9876543210',
    instructions: '',
    city: 'bangalore',
    delivery_valid: 1,
    ...overrides,
  };
}

// Local-time clocks (the rule reads local hours). 2025-03-03 is a Monday.
const mondayAt = (h: number, m = 0) => new Date(2025, 2, 3, h, m);
const fridayAt = (h: number, m = 0) => new Date(2025, 2, 7, h, m);
const saturdayAt = (h: number) => new Date(2025, 2, 8, h, 0);
const sundayAt = (h: number) => new Date(2025, 2, 9, h, 0);

const newestFirst = [address('o1', 'OTHER'), address('w1', 'WORK'), address('h1', 'HOME')];

afterEach(() => {
  for (const name of ['userLocation', DEFAULT_ADDRESS_APPLIED_COOKIE, DEFAULT_ADDRESS_DECLINED_COOKIE]) {
    document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
});

describe('isWorkingHours', () => {
  it('is Monday to Friday from 09:00 up to (not including) 18:00', () => {
    expect(isWorkingHours(mondayAt(9, 0))).toBe(true);
    expect(isWorkingHours(mondayAt(8, 59))).toBe(false);
    expect(isWorkingHours(fridayAt(17, 59))).toBe(true);
    expect(isWorkingHours(fridayAt(18, 0))).toBe(false);
    expect(isWorkingHours(saturdayAt(11))).toBe(false);
    expect(isWorkingHours(sundayAt(11))).toBe(false);
  });
});

describe('chooseDefaultAddress', () => {
  it('picks the WORK address on a weekday in working hours, case-insensitively', () => {
    expect(chooseDefaultAddress(newestFirst, mondayAt(11))?.id).toBe('w1');
  });

  it('picks the HOME address in the evening and at weekends', () => {
    expect(chooseDefaultAddress(newestFirst, mondayAt(20))?.id).toBe('h1');
    expect(chooseDefaultAddress(newestFirst, saturdayAt(11))?.id).toBe('h1');
  });

  it('falls back to the newest address when the wanted one is missing, and to null without any', () => {
    expect(chooseDefaultAddress([address('o2', 'OTHER'), address('h1', 'HOME')], mondayAt(11))?.id).toBe('o2');
    expect(chooseDefaultAddress([address('o2', 'OTHER'), address('w1', 'WORK')], sundayAt(11))?.id).toBe('o2');
    expect(chooseDefaultAddress([], mondayAt(11))).toBeNull();
  });
});

describe('shouldApplyDefaultAddress', () => {
  const signIn = { wasLoggedIn: false, isLoggedIn: true, hasLocation: false, cookies: '' };

  it('applies on a logged-out → logged-in change without a location', () => {
    expect(shouldApplyDefaultAddress(signIn)).toBe(true);
  });

  it('does not apply when already logged in, still logged out, or a location is set', () => {
    expect(shouldApplyDefaultAddress({ ...signIn, wasLoggedIn: true })).toBe(false);
    expect(shouldApplyDefaultAddress({ ...signIn, isLoggedIn: false })).toBe(false);
    expect(shouldApplyDefaultAddress({ ...signIn, hasLocation: true })).toBe(false);
  });

  it('does not apply while the applied or the do-not-apply flag is set', () => {
    expect(shouldApplyDefaultAddress({ ...signIn, cookies: `a=1; ${DEFAULT_ADDRESS_APPLIED_COOKIE}=1` })).toBe(false);
    expect(shouldApplyDefaultAddress({ ...signIn, cookies: `${DEFAULT_ADDRESS_DECLINED_COOKIE}=1; b=2` })).toBe(false);
  });
});

describe('applyDefaultAddress', () => {
  it('writes the chosen address as the location, announces it and sets the 1-minute applied flag', () => {
    const seen: Array<UserLocation | null> = [];
    const off = on('location:changed', (location) => seen.push(location));
    const writes: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get: () => descriptor.get!.call(document),
      set: (value: string) => {
        writes.push(value);
        descriptor.set!.call(document, value);
      },
    });

    const applied = applyDefaultAddress(newestFirst, mondayAt(11));
    off();
    delete (document as { cookie?: string }).cookie;

    expect(applied?.id).toBe('w1');
    // The location is the address, flagged so the address hint tells the customer.
    const expected = { ...addressToLocation(newestFirst[1]!), showUserDefaultAddressHint: true };
    expect(expected).toMatchObject({ id: 'w1', annotation: 'WORK', lat: 12.93, lng: 77.62, area: 'Koramangala' });
    expect(seen).toEqual([expected]);
    expect(getUserLocation()).toEqual(expected);
    expect(writes).toContain(`${DEFAULT_ADDRESS_APPLIED_COOKIE}=1; Max-Age=60; Path=/; SameSite=Lax`);
    expect(shouldApplyDefaultAddress({ wasLoggedIn: false, isLoggedIn: true, hasLocation: false, cookies: document.cookie })).toBe(false);
  });

  it('changes nothing without saved addresses', () => {
    expect(applyDefaultAddress([], mondayAt(11))).toBeNull();
    expect(getUserLocation()).toBeNull();
    expect(document.cookie).not.toContain(DEFAULT_ADDRESS_APPLIED_COOKIE);
  });

  it('the address hint flag lives in the cookie until the hint acknowledges it, without moving the location', () => {
    applyDefaultAddress(newestFirst, mondayAt(20)); // evening: HOME
    expect(getUserLocation()).toMatchObject({ id: 'h1', annotation: 'HOME', showUserDefaultAddressHint: true });
    const seen: unknown[] = [];
    const off = on('location:changed', (location) => seen.push(location));

    expect(acknowledgeDefaultAddressHint()).toBe(true);
    expect(acknowledgeDefaultAddressHint()).toBe(false);
    off();

    expect(getUserLocation()).toEqual(addressToLocation(newestFirst.find((a) => a.id === 'h1')!));
    expect(seen).toEqual([]);
  });

  it('a location picked by hand never carries the flag', () => {
    setUserLocation({ ...addressToLocation(newestFirst[0]!) });
    expect(getUserLocation()?.showUserDefaultAddressHint).toBeUndefined();
    // Only a saved address can carry it: a stray flag on a plain point is dropped.
    const point = encodeURIComponent(JSON.stringify({ lat: 12.9, lng: 77.6, address: 'x', area: 'y', mainText: 'y', city: 'bangalore', showUserDefaultAddressHint: true }));
    expect(parseUserLocation(point)?.showUserDefaultAddressHint).toBeUndefined();
  });

  it('declining keeps it off for a day', () => {
    declineDefaultAddress();
    expect(shouldApplyDefaultAddress({ wasLoggedIn: false, isLoggedIn: true, hasLocation: false, cookies: document.cookie })).toBe(false);
  });
});
