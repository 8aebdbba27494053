/**
 * Display formatting shared by every microfrontend: money in paise shown as rupees,
 * ratings with one decimal, delivery times and price ranges.
 */

const rupees = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2, minimumFractionDigits: 0 });
const rupeesWithPaise = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2, minimumFractionDigits: 2 });

/**
 * `24900` → `₹249`, `124900` → `₹1,249`, `24950` → `₹249.50`.
 *
 * Money is integer paise everywhere (docs/edge-api.md); a fractional or non-numeric amount is a bug
 * upstream, so it throws instead of printing a wrong price.
 */
export function formatPrice(paise: number): string {
  if (!Number.isSafeInteger(paise)) {
    throw new TypeError(`formatPrice expects integer paise, got ${String(paise)}`);
  }
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  const formatter = abs % 100 === 0 ? rupees : rupeesWithPaise;
  return `${sign}₹${formatter.format(abs / 100)}`;
}

/** One decimal; '--' when the rating is missing, zero or not a number. */
export function formatRating(rating: number | string | null | undefined): string {
  const value = typeof rating === 'string' ? Number.parseFloat(rating) : rating;
  if (value === null || value === undefined || !Number.isFinite(value) || value === 0) return '--';
  return value.toFixed(1);
}

/** Spec: delivery time 'min-max MINS'. */
export function formatDeliveryTime(minMinutes: number, maxMinutes: number): string {
  return minMinutes === maxMinutes ? `${minMinutes} MINS` : `${minMinutes}-${maxMinutes} MINS`;
}
