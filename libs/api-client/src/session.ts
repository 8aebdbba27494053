/**
 * The session identifiers the edge hands the browser: sid, tid, deviceId and csrfToken.
 *
 * They start from the page's initial state (`<script id="tiffin-initial-state">`, written by the
 * edge in place of `<!--tiffin:initial-state-->`) and every JSON reply refreshes them.
 * They live in memory only: the edge re-injects them on every page load, and the session itself
 * is an HttpOnly cookie the browser sends on its own. This module is shared as a Module Federation
 * singleton, so the shell and every remote see the same values.
 */

interface SessionState {
  sid?: string;
  tid?: string;
  deviceId?: string;
  csrfToken?: string;
}

const FIELDS = ['sid', 'tid', 'deviceId', 'csrfToken'] as const;

export const INITIAL_STATE_ELEMENT_ID = 'tiffin-initial-state';

/** Reads the edge's initial state; a missing or malformed block yields an empty state. */
export function readInitialState(doc: Document | undefined = typeof document === 'undefined' ? undefined : document): SessionState {
  const element = doc?.getElementById(INITIAL_STATE_ELEMENT_ID);
  if (!element?.textContent) return {};
  try {
    return pickSession(JSON.parse(element.textContent));
  } catch {
    return {};
  }
}

/** Keeps the non-empty string session fields of any object (an envelope, the initial state). */
function pickSession(value: unknown): SessionState {
  const picked: SessionState = {};
  if (!value || typeof value !== 'object') return picked;
  const record = value as Record<string, unknown>;
  for (const field of FIELDS) {
    const v = record[field];
    if (typeof v === 'string' && v !== '') picked[field] = v;
  }
  return picked;
}

export class SessionStore {
  private state: SessionState | undefined;

  constructor(private readonly load: () => SessionState = () => readInitialState()) {}

  /** Loaded lazily so the store can be created before the initial-state script is parsed. */
  get(): Readonly<SessionState> {
    if (!this.state) this.state = this.load();
    return this.state;
  }

  /** Refreshes the fields present in a reply; absent fields keep their previous values. */
  update(reply: unknown): void {
    this.state = { ...this.get(), ...pickSession(reply) };
  }
}
