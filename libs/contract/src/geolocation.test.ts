import { describe, expect, it, vi } from 'vitest';
import { currentPosition, GEOLOCATION_MESSAGES, haversineKm, POSITION_OPTIONS, type GeolocationEnvironment } from './geolocation';

function env(state: PermissionState | 'throws' | 'missing', outcome: { lat: number; lng: number } | { code: number }) {
  const getCurrentPosition = vi.fn((success: PositionCallback, failure?: PositionErrorCallback | null, _options?: PositionOptions) => {
    if ('code' in outcome) failure?.({ code: outcome.code, message: '' } as GeolocationPositionError);
    else success({ coords: { latitude: outcome.lat, longitude: outcome.lng } } as GeolocationPosition);
  });
  const permissions =
    state === 'missing'
      ? undefined
      : {
          query: vi.fn(async () => {
            if (state === 'throws') throw new TypeError('unknown permission');
            return { state } as PermissionStatus;
          }),
        };
  return { environment: { geolocation: { getCurrentPosition }, permissions } as GeolocationEnvironment, getCurrentPosition };
}

describe('currentPosition (Locate Me)', () => {
  it('reads the position with high accuracy and a 5000 ms timeout when permission is granted', async () => {
    const { environment, getCurrentPosition } = env('granted', { lat: 12.93, lng: 77.62 });

    await expect(currentPosition(environment)).resolves.toEqual({ lat: 12.93, lng: 77.62 });
    expect(getCurrentPosition.mock.calls[0]![2]).toEqual(POSITION_OPTIONS);
    expect(POSITION_OPTIONS).toMatchObject({ enableHighAccuracy: true, timeout: 5000 });
  });

  it('never prompts: without a granted permission the position is not read', async () => {
    for (const state of ['prompt', 'denied', 'throws', 'missing'] as const) {
      const { environment, getCurrentPosition } = env(state, { lat: 1, lng: 2 });
      await expect(currentPosition(environment)).rejects.toThrow(GEOLOCATION_MESSAGES.disabled);
      expect(getCurrentPosition).not.toHaveBeenCalled();
    }
  });

  it('says geolocation is not supported when the browser has none', async () => {
    await expect(currentPosition({})).rejects.toThrow('Geolocation is not supported by your browser');
  });

  it('maps a denied lookup to "disabled" and a timeout or failure to "unable to fetch"', async () => {
    await expect(currentPosition(env('granted', { code: 1 }).environment)).rejects.toThrow('Location services is disabled');
    await expect(currentPosition(env('granted', { code: 3 }).environment)).rejects.toThrow('We are unable to fetch your location currently.');
    await expect(currentPosition(env('granted', { code: 2 }).environment)).rejects.toThrow('We are unable to fetch your location currently.');
  });
});

describe('haversineKm', () => {
  it('is zero for one point and symmetric', () => {
    const koramangala = { lat: 12.9352, lng: 77.6245 };
    const indiranagar = { lat: 12.9784, lng: 77.6408 };
    expect(haversineKm(koramangala, koramangala)).toBe(0);
    expect(haversineKm(koramangala, indiranagar)).toBeCloseTo(haversineKm(indiranagar, koramangala), 9);
  });

  it('measures with the 6371 km Earth radius', () => {
    // One degree of latitude is 6371 × π / 180 ≈ 111.195 km.
    expect(haversineKm({ lat: 0, lng: 77 }, { lat: 1, lng: 77 })).toBeCloseTo(111.195, 3);
    // Bangalore (MG Road) to Delhi (Connaught Place): about 1,740 km as the crow flies.
    const km = haversineKm({ lat: 12.9756, lng: 77.6066 }, { lat: 28.6315, lng: 77.2167 });
    expect(km).toBeGreaterThan(1730);
    expect(km).toBeLessThan(1750);
  });
});
