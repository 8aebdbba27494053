/**
 * Turning a place into the shared delivery location: a
 * suggestion or a device position is resolved by `misc/address-recommend`, and the result is
 * stored with the contract's `setUserLocation` (cookie `userLocation`, 365 days, plus
 * `location:changed`). This module never writes the cookie itself.
 */
import { edge } from '@tiffin/api-client';
import { setUserLocation, type AddressRecommendation, type UserLocation } from '@tiffin/contract';

/** What the landing page says when a place cannot be used. */
export const LOCATION_MESSAGES = {
  empty: 'Please enter your delivery location to view restaurants.',
  failed: 'Oops! something went wrong. Please try entering your location again',
  notFound: 'Location not found',
} as const;

/**
 * The stored shape of a resolved place. `position` (a device fix) wins over the place's centre:
 * the reverse-geocoded locality only names where the visitor is.
 */
export function toUserLocation(place: AddressRecommendation, position?: { lat: number; lng: number }): UserLocation {
  const area = place.area || place.main_text || '';
  return {
    lat: position?.lat ?? place.geometry.location.lat,
    lng: position?.lng ?? place.geometry.location.lng,
    address: place.formatted_address,
    area,
    mainText: place.main_text || area,
    city: place.city,
  };
}

async function recommend(query: { placeId: string } | { lat: number; lng: number }): Promise<AddressRecommendation> {
  const [place] = await edge.addressRecommend(query);
  if (!place) throw new Error(LOCATION_MESSAGES.notFound);
  return place;
}

/** Resolves a place suggestion and makes it the delivery location. */
export async function choosePlace(placeId: string): Promise<UserLocation> {
  const location = toUserLocation(await recommend({ placeId }));
  setUserLocation(location);
  return location;
}

/** Resolves a device position (reverse geocoding) and makes it the delivery location. */
export async function chooseCoordinates(position: { lat: number; lng: number }): Promise<UserLocation> {
  const location = toUserLocation(await recommend(position), position);
  setUserLocation(location);
  return location;
}
