/**
 * The veg-only preference (remembered in local storage) under the product's
 * storage prefix: `tfn_dweb_vegOnly`. Storage can be missing or refuse writes (private modes,
 * quotas); the preference then simply lasts for the page.
 */
import { storageKey } from '@tiffin/contract';

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

export function writeVegOnly(vegOnly: boolean, store: Storage | null = storage()): void {
  try {
    store?.setItem(VEG_ONLY_KEY, String(vegOnly));
  } catch {
    // Not remembered; the toggle still works for this page.
  }
}
