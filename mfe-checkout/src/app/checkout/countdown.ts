/**
 * The UPI countdown: how long the customer has to approve the collect request in their UPI app,
 * and the colour that warns them as time runs out (green under half elapsed, orange up to three
 * quarters, red after).
 */

/** A UPI collect is never waited on longer than this, whatever the gateway says. */
export const UPI_MAX_WAIT_MS = 3 * 60 * 1000;

export type CountdownColour = 'green' | 'orange' | 'red';

export const COUNTDOWN_COLOURS: Record<CountdownColour, string> = {
  green: '#60b246',
  orange: '#fc8019',
  red: '#e23744',
};

/** `elapsed` is the share of the countdown gone, 0 to 1. */
export function countdownColour(elapsed: number): CountdownColour {
  if (elapsed < 0.5) return 'green';
  if (elapsed < 0.75) return 'orange';
  return 'red';
}

/** When waiting ends: the payment's `expires_at`, but never later than the maximum wait. */
export function countdownDeadline(startedAt: number, expiresAt: string): number {
  const cap = startedAt + UPI_MAX_WAIT_MS;
  const parsed = Date.parse(expiresAt);
  return Number.isFinite(parsed) ? Math.min(parsed, cap) : cap;
}

/** 75000 → '1:15'. */
export function formatRemaining(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
