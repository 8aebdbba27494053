import { afterEach, describe, expect, it } from 'vitest';
import { on, type UserLocation } from './events';
import {
  getUserLocation,
  parseUserLocation,
  readCookie,
  serializeUserLocationCookie,
  setUserLocation,
  USER_LOCATION_MAX_AGE_S,
} from './user-location';

const koramangala: UserLocation = {
  lat: 12.9352,
  lng: 77.6245,
  address: 'Koramangala, Bangalore, Karnataka, India',
  area: 'Koramangala',
  mainText: 'Koramangala',
  city: 'bangalore',
};

afterEach(() => {
  document.cookie = 'userLocation=; Max-Age=0; Path=/';
});

describe('userLocation cookie', () => {
  it('serialises as URL-encoded JSON that lives 365 days on the whole site', () => {
    const cookie = serializeUserLocationCookie(koramangala);
    const [pair, ...attributes] = cookie.split('; ');

    expect(pair!.startsWith('userLocation=')).toBe(true);
    expect(JSON.parse(decodeURIComponent(pair!.slice('userLocation='.length)))).toEqual(koramangala);
    expect(attributes).toContain(`Max-Age=${USER_LOCATION_MAX_AGE_S}`);
    expect(USER_LOCATION_MAX_AGE_S).toBe(31_536_000);
    expect(attributes).toContain('Path=/');
  });

  it('round-trips through document.cookie', () => {
    setUserLocation(koramangala);
    expect(getUserLocation()).toEqual(koramangala);
  });

  it('reads a value that another app (or the edge) wrote', () => {
    const raw = encodeURIComponent(JSON.stringify({ ...koramangala, lat: '12.9352', lng: '77.6245' }));
    expect(parseUserLocation(readCookie('userLocation', `a=1; userLocation=${raw}; b=2`))).toEqual(koramangala);
  });

  it('treats anything without numeric lat and lng as no location', () => {
    expect(parseUserLocation(undefined)).toBeNull();
    expect(parseUserLocation('not json')).toBeNull();
    expect(parseUserLocation(encodeURIComponent(JSON.stringify({ address: 'x' })))).toBeNull();
  });

  it('announces changes and clears the cookie for a location without lat/lng', () => {
    const seen: Array<UserLocation | null> = [];
    const off = on('location:changed', (detail) => seen.push(detail));

    setUserLocation(koramangala);
    setUserLocation({ ...koramangala, lat: Number.NaN });
    off();

    expect(seen).toEqual([koramangala, null]);
    expect(getUserLocation()).toBeNull();
  });

  it('keeps the saved address id and annotation of a location that came from one', () => {
    const home = { ...koramangala, id: 'a8f3', annotation: 'HOME' };
    setUserLocation(home);
    expect(getUserLocation()).toEqual(home);
    expect(parseUserLocation(encodeURIComponent(JSON.stringify({ ...koramangala, id: 7, annotation: '' })))).toEqual(koramangala);
  });
});
