/**
 * The address form's pure parts: the form state, its checks (worded as the edge words them)
 * and the POST address body. The flat number sits at the start of the address
 * without duplication; the service composes it, so the form sends the address without it.
 */
import { annotationOf, type Address, type AddressInput, type AddressRecommendation } from '@tiffin/contract';

const ADDRESS_MESSAGES = {
  address: 'Please enter your address.',
  location: 'Please select a location.',
  flat: 'Please enter your flat number.',
} as const;

/** The place the customer picked (search or current location). */
interface PickedPlace {
  address: string;
  area: string;
  city: string;
  lat: number;
  lng: number;
}

export interface AddressForm {
  id?: string;
  place: PickedPlace | null;
  flatNo: string;
  landmark: string;
  annotation: 'HOME' | 'WORK' | 'OTHER';
}

/** "Flat 4B, 12 1st Cross" with flat "Flat 4B" → "12 1st Cross". */
function withoutFlatPrefix(address: string, flatNo: string): string {
  const flat = flatNo.trim();
  if (!flat) return address;
  const lower = address.toLowerCase();
  const prefix = flat.toLowerCase();
  if (!lower.startsWith(prefix)) return address;
  return address.slice(flat.length).replace(/^[\s,]+/, '');
}

export function formFromAddress(address: Address | null): AddressForm {
  if (!address) return { place: null, flatNo: '', landmark: '', annotation: 'HOME' };
  return {
    id: address.id,
    place: { address: withoutFlatPrefix(address.address, address.flat_no), area: address.area, city: address.city, lat: address.lat, lng: address.lng },
    flatNo: address.flat_no,
    landmark: address.landmark,
    annotation: annotationOf(address),
  };
}

export function placeFromRecommendation(place: AddressRecommendation, position?: { lat: number; lng: number }): PickedPlace {
  return {
    address: place.formatted_address,
    area: place.area || place.main_text,
    city: place.city,
    lat: position?.lat ?? place.geometry.location.lat,
    lng: position?.lng ?? place.geometry.location.lng,
  };
}

/** null when the form can be saved, else the first problem. */
export function formError(form: AddressForm): string | null {
  if (!form.place) return ADDRESS_MESSAGES.location;
  if (!form.place.address.trim()) return ADDRESS_MESSAGES.address;
  if (!form.flatNo.trim()) return ADDRESS_MESSAGES.flat;
  return null;
}

export function toAddressInput(form: AddressForm & { place: PickedPlace }): AddressInput {
  return {
    ...(form.id ? { id: form.id } : {}),
    annotation: form.annotation,
    address: form.place.address.trim(),
    area: form.place.area,
    city: form.place.city,
    lat: form.place.lat,
    lng: form.place.lng,
    flat_no: form.flatNo.trim(),
    landmark: form.landmark.trim(),
    instructions: '',
  };
}
