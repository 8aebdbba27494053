/**
 * Defaulting the delivery address: when a customer goes from logged-out to logged-in and no
 * location is set, one of their saved addresses becomes the location.
 *
 * - Which one: on weekdays Monday to Friday within working hours the WORK address, otherwise the
 *   HOME address; without that one, the newest address (the edge lists newest first). The spec
 *   leaves the hours to us: ours are 09:00 (inclusive) to 18:00 (exclusive), in the browser's local
 *   time, because that is the customer's own working day.
 * - Whether: never while the applied flag (cookie, 1 minute) is set, so two sign-in events in a
 *   row (two tabs, a sign-in right after a sign-up) apply it once; never while the do-not-apply
 *   flag (cookie, 1 day) is set, which `declineDefaultAddress` writes when the customer turns the
 *   default down (e.g. a location picker's "change" on the default-address hint).
 *
 * `chooseDefaultAddress` and `shouldApplyDefaultAddress` are pure (a clock and the cookie string
 * are passed in); `applyDefaultAddress` is the one function with effects: it writes the location
 * through `setUserLocation` (cookie `userLocation` and `location:changed`) and the applied flag.
 * The location it writes carries `showUserDefaultAddressHint`, so the shell's address hint
 * (`shell-app/src/hints/`) tells the customer which address was chosen and lets them change it.
 */
import type { Address } from './edge-types';
import type { UserLocation } from './events';
import { readCookie, setUserLocation } from './user-location';

/** Working hours for the WORK default: [start, end) in local hours. Spec: values not shown. */
const WORK_HOURS = { startHour: 9, endHour: 18 } as const;

/** The applied flag lasts 1 minute, the do-not-apply flag 1 day. */
export const DEFAULT_ADDRESS_APPLIED_COOKIE = 'tfn_default_address_applied';
const DEFAULT_ADDRESS_APPLIED_MAX_AGE_S = 60;
export const DEFAULT_ADDRESS_DECLINED_COOKIE = 'tfn_default_address_declined';
const DEFAULT_ADDRESS_DECLINED_MAX_AGE_S = 24 * 60 * 60;

/** Monday–Friday, WORK_HOURS.startHour ≤ hour < WORK_HOURS.endHour, local time. */
export function isWorkingHours(now: Date): boolean {
  const day = now.getDay(); // 0 Sunday … 6 Saturday
  const hour = now.getHours();
  return day >= 1 && day <= 5 && hour >= WORK_HOURS.startHour && hour < WORK_HOURS.endHour;
}

/** Case-insensitive: only HOME and WORK are special. */
export function annotationOf(address: { annotation?: string | null }): Address['annotation'] {
  const upper = String(address.annotation ?? '').toUpperCase();
  return upper === 'HOME' || upper === 'WORK' ? upper : 'OTHER';
}

/** The address to default to at `now`, or null when there is none. `addresses` is newest first. */
export function chooseDefaultAddress<A extends { annotation?: string | null }>(addresses: readonly A[], now: Date): A | null {
  const wanted = isWorkingHours(now) ? 'WORK' : 'HOME';
  return addresses.find((a) => annotationOf(a) === wanted) ?? addresses[0] ?? null;
}

interface DefaultAddressContext {
  wasLoggedIn: boolean;
  isLoggedIn: boolean;
  /** A location with lat and lng is already set. */
  hasLocation: boolean;
  /** `document.cookie`. */
  cookies: string;
}

/** True only on a logged-out → logged-in change with no location and neither flag set. */
export function shouldApplyDefaultAddress(context: DefaultAddressContext): boolean {
  if (context.wasLoggedIn || !context.isLoggedIn || context.hasLocation) return false;
  if (readCookie(DEFAULT_ADDRESS_APPLIED_COOKIE, context.cookies)) return false;
  if (readCookie(DEFAULT_ADDRESS_DECLINED_COOKIE, context.cookies)) return false;
  return true;
}

/** The delivery location a saved address stands for (its id and annotation kept). */
export function addressToLocation(address: Address): UserLocation {
  return {
    lat: address.lat,
    lng: address.lng,
    address: address.address,
    area: address.area,
    mainText: address.area || address.address,
    city: address.city,
    id: address.id,
    annotation: annotationOf(address),
  };
}

function flagCookie(name: string, maxAgeS: number): string {
  const secure = typeof window !== 'undefined' && window.location.protocol === 'https:' ? '; Secure' : '';
  return `${name}=1; Max-Age=${maxAgeS}; Path=/; SameSite=Lax${secure}`;
}

/**
 * Makes the default address the location (through `setUserLocation`, which writes `userLocation`
 * and emits `location:changed`) and sets the 1-minute applied flag. Returns the address applied,
 * or null when there is nothing to apply.
 */
export function applyDefaultAddress(addresses: readonly Address[], now: Date = new Date()): Address | null {
  const chosen = chooseDefaultAddress(addresses, now);
  if (!chosen) return null;
  setUserLocation({ ...addressToLocation(chosen), showUserDefaultAddressHint: true });
  if (typeof document !== 'undefined') document.cookie = flagCookie(DEFAULT_ADDRESS_APPLIED_COOKIE, DEFAULT_ADDRESS_APPLIED_MAX_AGE_S);
  return chosen;
}

/** The customer turned the default down: do not apply one for a day. */
export function declineDefaultAddress(): void {
  if (typeof document !== 'undefined') document.cookie = flagCookie(DEFAULT_ADDRESS_DECLINED_COOKIE, DEFAULT_ADDRESS_DECLINED_MAX_AGE_S);
}
