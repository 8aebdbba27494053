import { describe, expect, it } from 'vitest';
import {
  addressHintApplies,
  addressHintTitle,
  DIFFERENT_LOCATION_THRESHOLD_KM,
  differentLocationHintApplies,
  formatDistanceKm,
  HINT_SESSION_KEYS,
  isFarFromLocation,
  markShown,
  scrolledPastThreshold,
  setLocationTooltipApplies,
  shownThisSession,
  type SessionStore,
} from './hint-rules';

const KORAMANGALA = { lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bangalore', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };

function memoryStore(): SessionStore & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return { values, getItem: (key) => values.get(key) ?? null, setItem: (key, value) => void values.set(key, value) };
}

const broken: SessionStore = {
  getItem: () => {
    throw new DOMException('denied', 'SecurityError');
  },
  setItem: () => {
    throw new DOMException('full', 'QuotaExceededError');
  },
};

describe('once per session', () => {
  it('remembers each hint separately under the product prefix', () => {
    const store = memoryStore();
    expect(shownThisSession('different-location', store)).toBe(false);

    markShown('different-location', store);

    expect(shownThisSession('different-location', store)).toBe(true);
    expect(shownThisSession('set-location', store)).toBe(false);
    expect([...store.values.keys()]).toEqual([HINT_SESSION_KEYS['different-location']]);
    expect(HINT_SESSION_KEYS['different-location']).toMatch(/^tfn_dweb_/);
  });

  it('treats missing or failing storage as "not shown yet" without throwing', () => {
    expect(shownThisSession('set-location', null)).toBe(false);
    expect(shownThisSession('set-location', broken)).toBe(false);
    expect(() => markShown('set-location', broken)).not.toThrow();
  });
});

describe('scroll threshold (20 px)', () => {
  it('hides only past 20 px from where the hint appeared, in either direction', () => {
    expect(scrolledPastThreshold(100, 120)).toBe(false);
    expect(scrolledPastThreshold(100, 121)).toBe(true);
    expect(scrolledPastThreshold(100, 80)).toBe(false);
    expect(scrolledPastThreshold(100, 79)).toBe(true);
  });
});

describe('different-location hint', () => {
  it('looks for the device only on the listing with a location, once a session', () => {
    const store = memoryStore();
    expect(differentLocationHintApplies('LISTING', KORAMANGALA, store)).toBe(true);
    expect(differentLocationHintApplies('LISTING', null, store)).toBe(false);
    expect(differentLocationHintApplies('SEARCH', KORAMANGALA, store)).toBe(false);
    expect(differentLocationHintApplies('MENU', KORAMANGALA, store)).toBe(false);
    markShown('different-location', store);
    expect(differentLocationHintApplies('LISTING', KORAMANGALA, store)).toBe(false);
  });

  it(`counts as far beyond ${DIFFERENT_LOCATION_THRESHOLD_KM} km (haversine)`, () => {
    // Indiranagar is about 5 km from Koramangala's centre; Whitefield about 15 km; Delhi 1,700.
    expect(isFarFromLocation({ lat: 12.9352, lng: 77.6245 }, KORAMANGALA)).toBe(false);
    expect(isFarFromLocation({ lat: 12.9698, lng: 77.75 }, KORAMANGALA)).toBe(true);
    expect(isFarFromLocation({ lat: 28.6315, lng: 77.2167 }, KORAMANGALA)).toBe(true);
    // Exactly at the threshold is not beyond it: 0.045° of latitude ≈ 5.004 km, 0.044° ≈ 4.893 km.
    expect(isFarFromLocation({ lat: 12.9352 + 0.044, lng: 77.6245 }, KORAMANGALA)).toBe(false);
    expect(isFarFromLocation({ lat: 12.9352 + 0.045, lng: 77.6245 }, KORAMANGALA)).toBe(true);
  });

  it('says the distance in whole km', () => {
    expect(formatDistanceKm(5.4)).toBe('5 km');
    expect(formatDistanceKm(1742.3)).toBe('1,742 km');
  });
});

describe('set-location tooltip', () => {
  it('is scheduled only where the header allows it, with no location, once a session', () => {
    const store = memoryStore();
    expect(setLocationTooltipApplies(true, false, store)).toBe(true);
    expect(setLocationTooltipApplies(false, false, store)).toBe(false);
    expect(setLocationTooltipApplies(true, true, store)).toBe(false);
    markShown('set-location', store);
    expect(setLocationTooltipApplies(true, false, store)).toBe(false);
  });
});

describe('address hint', () => {
  const chosen = { ...KORAMANGALA, id: 'w1', annotation: 'WORK', showUserDefaultAddressHint: true };

  it('applies to a signed-in customer whose location is a default address chosen for them, once a session', () => {
    const store = memoryStore();
    expect(addressHintApplies(chosen, true, store)).toBe(true);
    expect(addressHintApplies(chosen, false, store)).toBe(false);
    expect(addressHintApplies(null, true, store)).toBe(false);
    expect(addressHintApplies({ ...chosen, showUserDefaultAddressHint: undefined }, true, store)).toBe(false);
    expect(addressHintApplies({ ...chosen, id: undefined }, true, store)).toBe(false);
    markShown('address', store);
    expect(addressHintApplies(chosen, true, store)).toBe(false);
    expect(HINT_SESSION_KEYS.address).toMatch(/^tfn_dweb_/);
  });

  it('names Home and Work (any case), anything else as a saved address', () => {
    expect(addressHintTitle({ annotation: 'WORK' })).toBe('Delivering to Work');
    expect(addressHintTitle({ annotation: 'home' })).toBe('Delivering to Home');
    expect(addressHintTitle({ annotation: 'OTHER' })).toBe('Delivering to your saved address');
    expect(addressHintTitle({})).toBe('Delivering to your saved address');
  });
});
