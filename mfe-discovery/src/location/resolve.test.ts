import { describe, expect, it } from 'vitest';
import { toUserLocation } from './resolve';

const koramangala = {
  place_id: 'bangalore-koramangala',
  formatted_address: 'Koramangala, Bangalore, Karnataka, India',
  address_components: [],
  geometry: { location: { lat: 12.9352, lng: 77.6245 } },
  area: 'Koramangala',
  city: 'bangalore',
  main_text: 'Koramangala',
};

describe('toUserLocation', () => {
  it("stores the contract's fields of a resolved place", () => {
    expect(toUserLocation(koramangala)).toEqual({
      lat: 12.9352,
      lng: 77.6245,
      address: 'Koramangala, Bangalore, Karnataka, India',
      area: 'Koramangala',
      mainText: 'Koramangala',
      city: 'bangalore',
    });
  });

  it("keeps the device's own position over the locality's centre", () => {
    expect(toUserLocation(koramangala, { lat: 12.94, lng: 77.63 })).toMatchObject({ lat: 12.94, lng: 77.63, area: 'Koramangala' });
  });

  it('falls back between area and main text', () => {
    expect(toUserLocation({ ...koramangala, area: '' })).toMatchObject({ area: 'Koramangala', mainText: 'Koramangala' });
    expect(toUserLocation({ ...koramangala, main_text: '' })).toMatchObject({ area: 'Koramangala', mainText: 'Koramangala' });
  });
});
