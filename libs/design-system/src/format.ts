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

/**
 * What someone typed in rupees as integer paise: `120` → 12000, `120.5` → 12050, `₹1,200.50` →
 * 120050 (a leading ₹ and the grouping commas are allowed). Null for anything else, more than two
 * decimals included: an amount is never rounded into one the person did not type. Worked on the
 * digits, not through a float, so `0.29` is exactly 29.
 */
export function parseRupees(typed: string): number | null {
  const match = /^₹?\s*([0-9][0-9,]*)(?:\.([0-9]{1,2}))?$/.exec(typed.trim());
  if (!match) return null;
  const whole = match[1]!.replace(/,/g, '');
  const paise = Number(whole) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(paise) ? paise : null;
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

/** Every date and time is shown in India's time, wherever the browser is (the app serves India). */
const dateTime = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Kolkata' });
const day = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Asia/Kolkata' });
const timeOfDay = new Intl.DateTimeFormat('en-IN', { hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Kolkata' });

function parsed(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `2026-11-26T15:00:00Z` → `26 Nov 2026, 8:30 pm`; empty for an empty or unreadable time. */
export function formatDateTime(iso: string): string {
  const date = parsed(iso);
  return date ? dateTime.format(date) : '';
}

/** `2026-11-26T15:00:00Z` → `8:30 pm`; empty for an empty or unreadable time. */
export function formatTime(iso: string): string {
  const date = parsed(iso);
  return date ? timeOfDay.format(date) : '';
}

/** Unix seconds → `26 Nov 2026, 8:30 pm` (India's time); empty for 0 or an unreadable time. */
export function formatDateTimeOfSeconds(unixSeconds: number): string {
  if (!Number.isFinite(unixSeconds) || unixSeconds <= 0) return '';
  return dateTime.format(new Date(unixSeconds * 1000));
}

/** Unix seconds → `26 Nov 2026` (India's day); empty for 0 or an unreadable time. */
export function formatDate(unixSeconds: number): string {
  if (!Number.isFinite(unixSeconds) || unixSeconds <= 0) return '';
  return day.format(new Date(unixSeconds * 1000));
}
