/**
 * The veg-only preference (remembered in local storage) under the product's
 * storage prefix: `tfn_dweb_vegOnly`. Storage can be missing or refuse writes (private modes,
 * quotas); the preference then simply lasts for the page.
 *
 * The edge draws a menu's first screen before any script runs and cannot read local storage, so
 * the preference is also kept in a cookie (`tfn_veg_only=1`, only while it is on) for it to draw
 * the dishes the page will show.
 */
import { readCookie, storageKey } from '@tiffin/contract';

export const VEG_ONLY_KEY = storageKey('vegOnly');

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readVegOnly(store: Storage | null = storage()): boolean {
  try {
    return store?.getItem(VEG_ONLY_KEY) === 'true';
  } catch {
    return false;
  }
}

export const VEG_ONLY_COOKIE = 'tfn_veg_only';

/** Keeps the cookie the edge reads in step with the preference shown (set while on, gone when off). */
export function shareVegOnly(vegOnly: boolean): void {
  if (typeof document === 'undefined') return;
  const on = readCookie(VEG_ONLY_COOKIE, document.cookie) === '1';
  if (on === vegOnly) return;
  document.cookie = vegOnly ? `${VEG_ONLY_COOKIE}=1; Path=/; Max-Age=31536000; SameSite=Lax` : `${VEG_ONLY_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
}

export function writeVegOnly(vegOnly: boolean, store: Storage | null = storage()): void {
  try {
    store?.setItem(VEG_ONLY_KEY, String(vegOnly));
  } catch {
    // Not remembered; the toggle still works for this page.
  }
}
