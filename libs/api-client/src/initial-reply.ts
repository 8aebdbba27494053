/**
 * The reply to a page's first call, carried in the page itself.
 *
 * For a listing, a menu or the cart page the edge answers that call while it writes the HTML and
 * puts the envelope's `data` and `statusCode` into the initial state (`firstReply`: the call's path
 * and query, the page it was made for, the data, the code), so the page paints without a round trip after the scripts have loaded.
 * It stands in for one call only: the same path and query, on the page the document was loaded
 * for, once. A later navigation, another location, a refined listing or a retry asks the edge.
 *
 * `peekInitialReply` only looks (safe in a render); the page calls `markInitialReplyUsed` once it
 * has shown it. This package is a Module Federation singleton, so "once" holds for the whole page.
 */
import type { Envelope } from './envelope';
import { INITIAL_STATE_ELEMENT_ID } from './session';

type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;

interface FirstReply {
  path: string;
  query: Record<string, unknown>;
  /** The page path and query the document was served for (`/restaurants`, `/menu?restaurant_id=5`). */
  page: string;
  data: unknown;
  /** The envelope's code: 0, or one the call's family shows its data with. */
  statusCode: number;
}

let cached: FirstReply | null | undefined;
let used = false;

function read(): FirstReply | null {
  if (typeof document === 'undefined') return null;
  const text = document.getElementById(INITIAL_STATE_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const reply = (JSON.parse(text) as { firstReply?: unknown }).firstReply;
    if (!reply || typeof reply !== 'object') return null;
    const { path, query, page, data, statusCode } = reply as Record<string, unknown>;
    if (typeof path !== 'string' || typeof page !== 'string' || !query || typeof query !== 'object' || data === undefined || data === null) return null;
    return { path, query: query as Record<string, unknown>, page, data, statusCode: typeof statusCode === 'number' ? statusCode : 0 };
  } catch {
    return null;
  }
}

/** A query as the client sends it: absent values left out, every value as its text, keys sorted. */
function normalise(query: Record<string, unknown>): string {
  return JSON.stringify(
    Object.entries(query)
      .filter(([, value]) => value !== undefined && value !== null)
      .map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : String(value)])
      .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)),
  );
}

function currentPage(): string {
  return typeof window === 'undefined' ? '' : `${window.location.pathname}${window.location.search}`;
}

function peek(path: string, query: Record<string, QueryValue>): FirstReply | undefined {
  if (used) return undefined;
  if (cached === undefined) cached = read();
  if (!cached || cached.path !== path || cached.page !== currentPage()) return undefined;
  return normalise(cached.query) === normalise(query) ? cached : undefined;
}

/** The carried reply to `path` with `query`, when the page carries that very call's and it is unused. */
export function peekInitialReply<T>(path: string, query: Record<string, QueryValue>): T | undefined {
  return peek(path, query)?.data as T | undefined;
}

/**
 * The same as an envelope, with its status code, for a caller that reads the envelope itself
 * (the cart, whose data also comes with a warning code).
 */
export function peekInitialEnvelope<T>(path: string, query: Record<string, QueryValue>): Envelope<T> | undefined {
  const reply = peek(path, query);
  return reply && { statusCode: reply.statusCode, data: reply.data as T };
}

/** The carried reply has been shown: every later call goes to the edge. */
export function markInitialReplyUsed(): void {
  used = true;
}

/** Reads the page's initial state again (tests). */
export function resetInitialReplyForTests(): void {
  cached = undefined;
  used = false;
}
