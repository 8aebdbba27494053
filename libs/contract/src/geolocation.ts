/**
 * The device position: read only when the geolocation permission is already
 * granted (Permissions API), with high accuracy and a 5000 ms timeout. It never prompts for
 * permission: a visitor who has not granted it gets the spec's message. Shared here so every app
 * that offers "Use current location" behaves and words it the same way.
 */

export const GEOLOCATION_MESSAGES = {
  disabled: 'Location services is disabled',
  unavailable: 'We are unable to fetch your location currently.',
  unsupported: 'Geolocation is not supported by your browser',
} as const;

/** High accuracy with a 5000 ms timeout. */
export const POSITION_OPTIONS: PositionOptions = { enableHighAccuracy: true, timeout: 5000, maximumAge: 0 };

export class GeolocationError extends Error {
  override readonly name = 'GeolocationError';
}

/** The parts of `navigator` this needs, injectable for tests. */
export interface GeolocationEnvironment {
  geolocation?: Pick<Geolocation, 'getCurrentPosition'>;
  permissions?: Pick<Permissions, 'query'>;
}

/** 1 is `GeolocationPositionError.PERMISSION_DENIED`. */
const PERMISSION_DENIED = 1;

async function permissionGranted(permissions: GeolocationEnvironment['permissions']): Promise<boolean> {
  if (!permissions) return false;
  try {
    return (await permissions.query({ name: 'geolocation' })).state === 'granted';
  } catch {
    // Some browsers do not know the geolocation permission name: we cannot tell it is granted.
    return false;
  }
}

/** The device position, or a `GeolocationError` carrying the spec message to show. */
export async function currentPosition(
  env: GeolocationEnvironment = typeof navigator === 'undefined' ? {} : navigator,
): Promise<{ lat: number; lng: number }> {
  const { geolocation } = env;
  if (!geolocation) throw new GeolocationError(GEOLOCATION_MESSAGES.unsupported);
  if (!(await permissionGranted(env.permissions))) throw new GeolocationError(GEOLOCATION_MESSAGES.disabled);
  return new Promise((resolve, reject) => {
    geolocation.getCurrentPosition(
      (position) => resolve({ lat: position.coords.latitude, lng: position.coords.longitude }),
      (error) =>
        reject(new GeolocationError(error.code === PERMISSION_DENIED ? GEOLOCATION_MESSAGES.disabled : GEOLOCATION_MESSAGES.unavailable)),
      POSITION_OPTIONS,
    );
  });
}

/** Distances use an Earth radius of 6371 km. */
const EARTH_RADIUS_KM = 6371;

/** Great-circle distance in km between two points (haversine formula, on that radius). */
export function haversineKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
