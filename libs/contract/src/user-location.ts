/**
 * The shared delivery location, kept in the `userLocation` cookie so that the edge, the shell and
 * every microfrontend read the same value (docs/edge-api.md).
 */
import { emit, type UserLocation } from './events';

const USER_LOCATION_COOKIE = 'userLocation';
/** The userLocation cookie lives 365 days. */
export const USER_LOCATION_MAX_AGE_S = 365 * 24 * 60 * 60;

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function asString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Parses the cookie's value (URL-encoded JSON). Anything without numeric lat and lng is no
 * location at all: every page that needs one checks both.
 */
export function parseUserLocation(raw: string | undefined | null): UserLocation | null {
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeURIComponent(raw));
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object') return null;
  const value = parsed as Record<string, unknown>;
  const lat = typeof value.lat === 'string' ? Number(value.lat) : value.lat;
  const lng = typeof value.lng === 'string' ? Number(value.lng) : value.lng;
  if (!isFiniteNumber(lat) || !isFiniteNumber(lng)) return null;
  return {
    lat,
    lng,
    address: asString(value.address),
    area: asString(value.area),
    mainText: asString(value.mainText),
    city: asString(value.city),
    ...savedAddressFields(value),
    ...defaultAddressHintField(value),
  };
}

/** `showUserDefaultAddressHint` only when true, and only for a saved address (it names one). */
function defaultAddressHintField(value: { id?: unknown; showUserDefaultAddressHint?: unknown }): Pick<UserLocation, 'showUserDefaultAddressHint'> {
  return value.showUserDefaultAddressHint === true && typeof value.id === 'string' && value.id !== '' ? { showUserDefaultAddressHint: true } : {};
}

/** `id` and `annotation` only when the location is a saved address, so other values stay as they were. */
function savedAddressFields(value: { id?: unknown; annotation?: unknown }): Pick<UserLocation, 'id' | 'annotation'> {
  const fields: Pick<UserLocation, 'id' | 'annotation'> = {};
  if (typeof value.id === 'string' && value.id !== '') fields.id = value.id;
  if (typeof value.annotation === 'string' && value.annotation !== '') fields.annotation = value.annotation;
  return fields;
}

/** Returns a cookie's raw value from a `document.cookie`-style string. */
export function readCookie(name: string, cookieString: string): string | undefined {
  for (const part of cookieString.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The Set-Cookie-style string that stores a location (or expires it when `null`). */
export function serializeUserLocationCookie(location: UserLocation | null, secure = false): string {
  const attributes = ['Path=/', 'SameSite=Lax', ...(secure ? ['Secure'] : [])];
  if (!location) return [`${USER_LOCATION_COOKIE}=`, 'Max-Age=0', ...attributes].join('; ');
  const { lat, lng, address, area, mainText, city } = location;
  const value = encodeURIComponent(JSON.stringify({ lat, lng, address, area, mainText, city, ...savedAddressFields(location), ...defaultAddressHintField(location) }));
  return [`${USER_LOCATION_COOKIE}=${value}`, `Max-Age=${USER_LOCATION_MAX_AGE_S}`, ...attributes].join('; ');
}

export function getUserLocation(): UserLocation | null {
  if (typeof document === 'undefined') return null;
  return parseUserLocation(readCookie(USER_LOCATION_COOKIE, document.cookie));
}

/**
 * Saves the location (or clears it when it lacks lat/lng, as the spec says) and tells everyone
 * with `location:changed`.
 */
export function setUserLocation(location: UserLocation | null): void {
  const valid = location && isFiniteNumber(location.lat) && isFiniteNumber(location.lng) ? location : null;
  if (typeof document !== 'undefined') {
    document.cookie = serializeUserLocationCookie(valid, window.location.protocol === 'https:');
  }
  emit('location:changed', valid);
}

/**
 * The address hint has told the customer about their default address: the stored location keeps
 * its place but loses `showUserDefaultAddressHint`, so no later visit shows the hint again. No
 * `location:changed`: where to deliver did not change. Returns whether there was a flag to drop.
 */
export function acknowledgeDefaultAddressHint(): boolean {
  const stored = getUserLocation();
  if (!stored?.showUserDefaultAddressHint || typeof document === 'undefined') return false;
  const { showUserDefaultAddressHint: _shown, ...location } = stored;
  document.cookie = serializeUserLocationCookie(location, window.location.protocol === 'https:');
  return true;
}

export function hasLatLng(location: UserLocation | null | undefined): location is UserLocation {
  return !!location && isFiniteNumber(location.lat) && isFiniteNumber(location.lng);
}
