/**
 * The location hints' rules, pure so they are tested without a
 * browser. The components in this folder only wire events and timers to these functions.
 *
 * - Different-location hint: on the listing page, when the device position (read only if the
 *   permission is already granted) is more than `DIFFERENT_LOCATION_THRESHOLD_KM` from the
 *   chosen delivery location. Primary action dismisses it, secondary opens the location sidebar.
 * - Set-location tooltip: on page types whose header allows it (`headerConfig(...)
 *   .setLocationTooltip`: the menu page) while no location is set, shown after
 *   `SET_LOCATION_TOOLTIP_DELAY_MS`; it clears as soon as a location exists; OK opens the sidebar.
 * - Address hint: a signed-in customer's location is the saved address chosen for them on sign-in
 *   (the default address, @tiffin/contract `default-address`; the location's
 *   `showUserDefaultAddressHint`). It says which one ("Delivering to Work: …"); its actions keep it
 *   or change it in the location sidebar. While it shows, the different-location hint waits.
 * - All show at most once per browser session (sessionStorage): the spec says so for the hints,
 *   and we hold the tooltip to it too so that every menu page of a visit does not nag again.
 * - All hide on a scroll beyond 20 px, on any click, or on their action button; the tooltip also
 *   follows the spec's generic tooltip timings (auto-hide after 4 s, action 300 ms after hiding).
 *
 * This module must never touch the DOM beyond the Storage object it is handed.
 */
import { annotationOf, haversineKm, storageKey, type PageType, type UserLocation } from '@tiffin/contract';

/** A hint hides once the page has scrolled more than 20 px from where it was shown. */
const HINT_SCROLL_THRESHOLD_PX = 20;

/**
 * The spec leaves the different-location threshold open. 5 km (haversine, Earth radius 6371 km) is
 * more than a GPS fix's error indoors and than a neighbourhood's size, and less than the distance
 * that changes which restaurants deliver (their radii are a few km): farther than that, the
 * listing the visitor sees is probably not for where they are.
 */
export const DIFFERENT_LOCATION_THRESHOLD_KM = 5;

/** The tooltip waits a moment so it does not flash during page load: 1 s, as the cart tooltip. */
export const SET_LOCATION_TOOLTIP_DELAY_MS = 1000;

/** A tooltip auto-hides after 4 s and notifies its action 300 ms after hiding. */
export const TOOLTIP_AUTO_HIDE_MS = 4000;
export const TOOLTIP_ACTION_DELAY_MS = 300;

type HintId = 'address' | 'different-location' | 'set-location';

/** sessionStorage keys, with the product's storage prefix (`tfn_dweb_`). */
export const HINT_SESSION_KEYS: Record<HintId, string> = {
  address: storageKey('hint_address_shown'),
  'different-location': storageKey('hint_different_location_shown'),
  'set-location': storageKey('hint_set_location_shown'),
};

/** sessionStorage may be missing or throw (storage disabled); a hint then shows, at worst, again. */
export type SessionStore = Pick<Storage, 'getItem' | 'setItem'> | null;

export function shownThisSession(id: HintId, storage: SessionStore): boolean {
  try {
    return storage?.getItem(HINT_SESSION_KEYS[id]) === '1';
  } catch {
    return false;
  }
}

export function markShown(id: HintId, storage: SessionStore): void {
  try {
    storage?.setItem(HINT_SESSION_KEYS[id], '1');
  } catch {
    // Storage full or disabled: nothing to remember it in.
  }
}

/** True once the page has moved more than 20 px (either way) from where the hint appeared. */
export function scrolledPastThreshold(startY: number, currentY: number): boolean {
  return Math.abs(currentY - startY) > HINT_SCROLL_THRESHOLD_PX;
}

/** Whether the different-location hint should look up the device position at all. */
export function differentLocationHintApplies(pageType: PageType, location: UserLocation | null, storage: SessionStore): boolean {
  return pageType === 'LISTING' && location !== null && !shownThisSession('different-location', storage);
}

/** The device is farther than the threshold from the chosen location. */
export function isFarFromLocation(device: { lat: number; lng: number }, location: { lat: number; lng: number }, thresholdKm = DIFFERENT_LOCATION_THRESHOLD_KM): boolean {
  return haversineKm(device, location) > thresholdKm;
}

/**
 * Whether the address hint shows now: the location is a default address chosen for the customer
 * (a saved address, flagged), someone is signed in, and it has not shown this session.
 */
export function addressHintApplies(location: UserLocation | null, signedIn: boolean, storage: SessionStore): boolean {
  return signedIn && !!location?.showUserDefaultAddressHint && !!location.id && !shownThisSession('address', storage);
}

/** "Delivering to Work" / "Delivering to Home" / "Delivering to your saved address". */
export function addressHintTitle(location: Pick<UserLocation, 'annotation'>): string {
  const kind = annotationOf({ annotation: location.annotation ?? '' });
  if (kind === 'WORK') return 'Delivering to Work';
  if (kind === 'HOME') return 'Delivering to Home';
  return 'Delivering to your saved address';
}

/** Whether the set-location tooltip should be scheduled now. */
export function setLocationTooltipApplies(allowedOnPage: boolean, hasLocation: boolean, storage: SessionStore): boolean {
  return allowedOnPage && !hasLocation && !shownThisSession('set-location', storage);
}

/** "12 km" / "1,740 km": how far the device is, rounded to whole km (never "0 km" past the threshold). */
export function formatDistanceKm(km: number): string {
  return `${Math.max(1, Math.round(km)).toLocaleString('en-IN')} km`;
}
