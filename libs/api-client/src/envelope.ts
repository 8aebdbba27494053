/**
 * The edge's reply envelope and the rules for reading it (docs/edge-api.md).
 */

export interface Envelope<T = unknown> {
  statusCode?: number;
  statusMessage?: string;
  data: T;
  tid?: string;
  sid?: string;
  deviceId?: string;
  csrfToken?: string;
  /** Older replies carry the code and message here instead of at the top level. */
  failure?: { errorCode?: number; message?: string } | null;
  success?: { message?: string } | null;
}

/**
 * Call families with their own success codes: the cart family also treats 8 (items unavailable)
 * and 9 (restaurant unserviceable) as success, because the cart is still returned and the page
 * shows the problem next to it.
 */
export type CallFamily = 'default' | 'cart';

const SUCCESS_CODES: Record<CallFamily, readonly number[]> = {
  default: [0],
  cart: [0, 8, 9],
};

/** Status from `statusCode`, else `failure.errorCode`, else -1. */
export function statusOf(reply: unknown): number {
  if (!reply || typeof reply !== 'object') return -1;
  const r = reply as Envelope;
  if (typeof r.statusCode === 'number') return r.statusCode;
  if (typeof r.failure?.errorCode === 'number') return r.failure.errorCode;
  return -1;
}

/** Message from `statusMessage`, else the success or failure message. */
export function messageOf(reply: unknown): string | undefined {
  if (!reply || typeof reply !== 'object') return undefined;
  const r = reply as Envelope;
  return r.statusMessage || r.success?.message || r.failure?.message || undefined;
}

export function isSuccess(reply: unknown, family: CallFamily = 'default'): boolean {
  return SUCCESS_CODES[family].includes(statusOf(reply));
}
