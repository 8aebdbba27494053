/**
 * Saved UPI ids, wallets and pay-later, loaded once per signed-in user and kept while the page
 * lives: going back to the Payments tab shows them at once instead of asking every provider again.
 * A change the customer makes (a delete, a link, a delink) is written back here so the kept copy
 * never disagrees with the screen. It keeps no failure, so Retry (or `force`) asks again.
 */
import { subscribeCurrentUser } from '@tiffin/contract';

const kept = new Map<string, Promise<unknown>>();

export type PaymentsCacheKey = 'saved-vpas' | 'wallets' | 'pay-later';

/**
 * The kept answer for `key`, or a new load. `force` asks again whatever is kept; `keepIf` turns
 * away an answer that is only partly true (a provider that did not answer), like a failure.
 */
export function loadOnce<T>(key: PaymentsCacheKey, load: () => Promise<T>, options: { force?: boolean; keepIf?: (answer: T) => boolean } = {}): Promise<T> {
  const hit = kept.get(key);
  if (hit && !options.force) return hit as Promise<T>;
  const pending = load();
  kept.set(key, pending);
  const forget = () => {
    if (kept.get(key) === pending) kept.delete(key);
  };
  pending.then((answer) => {
    if (options.keepIf && !options.keepIf(answer)) forget();
  }, forget);
  return pending;
}

export function keep<T>(key: PaymentsCacheKey, data: T): void {
  kept.set(key, Promise.resolve(data));
}

// Another user (or none) must never see the previous one's wallets.
subscribeCurrentUser(() => kept.clear());
