/**
 * The request helper (timeouts, retries, CSRF, envelope), the only code in the web apps that calls
 * `fetch` on the edge.
 *
 * - JSON in and out; credentials same-origin (the session is the edge's HttpOnly cookie).
 * - 20 s timeout per attempt; network failures (offline, failed to fetch, load failed, connection
 *   lost) and aborts, including our own timeout, are retried 2 times, 100 ms apart. A caller's own
 *   abort is final.
 * - GET carries query parameters; POST a JSON body plus the CSRF field `_csrf`.
 * - Every JSON reply, error or not, refreshes the stored sid, tid, deviceId and csrfToken.
 * - A non-OK HTTP status throws an `ApiError` of kind `http` with the reply attached;
 *   `getData`/`postData` also reject when the envelope's code is not a success.
 */
import { isSuccess, type CallFamily, type Envelope } from './envelope';
import { ApiError } from './errors';
import { SessionStore } from './session';

type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;
type QueryParams = Record<string, QueryValue>;

interface ApiClientOptions {
  /** Prefix of every call path. The edge serves the spec's paths under `/api/`. */
  basePath?: string;
  fetch?: typeof fetch;
  session?: SessionStore;
  timeoutMs?: number;
  retries?: number;
  retryDelayMs?: number;
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
}

export interface RequestOptions {
  /** Which success codes apply (`cart` also accepts 8 and 9). */
  family?: CallFamily;
  signal?: AbortSignal;
  /** Retry (within the same retry budget) when the caller deems a reply transient. */
  retryIf?: (reply: Envelope) => boolean;
}

export const DEFAULT_TIMEOUT_MS = 20_000;
export const DEFAULT_RETRIES = 2;
export const DEFAULT_RETRY_DELAY_MS = 100;

/** Browser wordings of "no answer": Chrome, Safari, Firefox, and our own offline guard. */
const NETWORK_FAILURE = /offline|failed to fetch|load failed|connection (?:was )?lost|networkerror|network request failed/i;

function isNetworkFailure(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  // Duck-typed: a DOMException is not always `instanceof Error` (other realms, older engines).
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (name === 'AbortError' || name === 'TimeoutError') return true;
  return error instanceof TypeError && typeof message === 'string' && NETWORK_FAILURE.test(message);
}

/** Builds `/api/<path>?<query>`; undefined/null values are left out, arrays joined by commas. */
export function buildUrl(basePath: string, path: string, params?: QueryParams): string {
  const base = basePath.endsWith('/') ? basePath : `${basePath}/`;
  const url = `${base}${path.replace(/^\/+/, '')}`;
  if (!params) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    search.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const query = search.toString();
  return query ? `${url}?${query}` : url;
}

function randomHex(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(buffer);
  return Array.from(buffer, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * A W3C `traceparent` for one attempt: the call's trace id with a fresh span id, sampled, so the
 * edge continues the browser's trace through every service (DESIGN.md "Tracing").
 */
export function traceparent(traceId: string): string {
  return `00-${traceId}-${randomHex(8)}-01`;
}

export interface ApiClient {
  readonly session: SessionStore;
  /** The address of a call the browser opens itself (an event stream): the base path and the query. */
  url(path: string, params?: QueryParams): string;
  get<T>(path: string, params?: QueryParams, options?: RequestOptions): Promise<Envelope<T>>;
  post<T>(path: string, body?: object, options?: RequestOptions): Promise<Envelope<T>>;
  /** Like `get`, and rejects with an `ApiError` of kind `status` unless the envelope is a success. */
  getData<T>(path: string, params?: QueryParams, options?: RequestOptions): Promise<T>;
  postData<T>(path: string, body?: object, options?: RequestOptions): Promise<T>;
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const basePath = options.basePath ?? '/api/';
  const session = options.session ?? new SessionStore();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = options.retries ?? DEFAULT_RETRIES;
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  // Resolved per call, so tests and polyfills that replace globalThis.fetch later are honoured.
  const doFetch = (input: string, init: RequestInit) => (options.fetch ?? globalThis.fetch)(input, init);

  async function attempt<T>(url: string, init: RequestInit, traceId: string, callerSignal?: AbortSignal): Promise<Envelope<T>> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('The request timed out.', 'TimeoutError')), timeoutMs);
    const forwardAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', forwardAbort, { once: true });
    try {
      const headers = new Headers(init.headers);
      headers.set('traceparent', traceparent(traceId));
      const response = await doFetch(url, { ...init, headers, credentials: 'same-origin', signal: controller.signal });
      const text = await response.text();
      let reply: unknown;
      let isJson = false;
      try {
        reply = text === '' ? undefined : JSON.parse(text);
        isJson = reply !== undefined;
      } catch {
        reply = text;
      }
      if (isJson) session.update(reply);
      if (!response.ok) throw new ApiError({ kind: 'http', reply, response });
      if (!isJson || typeof reply !== 'object' || reply === null) {
        throw new ApiError({ kind: 'parse', message: 'The server sent a reply that is not JSON.', reply, response });
      }
      return reply as Envelope<T>;
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', forwardAbort);
    }
  }

  async function send<T>(url: string, init: RequestInit, requestOptions: RequestOptions = {}): Promise<Envelope<T>> {
    const { signal, retryIf } = requestOptions;
    const traceId = randomHex(16);
    for (let tries = 0; ; tries += 1) {
      const canRetry = tries < retries;
      try {
        if (signal?.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError');
        const reply = await attempt<T>(url, init, traceId, signal);
        if (canRetry && retryIf?.(reply)) {
          await sleep(retryDelayMs);
          continue;
        }
        return reply;
      } catch (error) {
        if (error instanceof ApiError) throw error;
        const callerAborted = signal?.aborted ?? false;
        if (canRetry && !callerAborted && isNetworkFailure(error)) {
          await sleep(retryDelayMs);
          continue;
        }
        throw new ApiError({
          kind: 'network',
          message: (error as { message?: string } | null)?.message || 'The request failed.',
          cause: error,
        });
      }
    }
  }

  function ensureSuccess<T>(reply: Envelope<T>, family: CallFamily | undefined): T {
    if (!isSuccess(reply, family)) throw new ApiError({ kind: 'status', reply });
    return reply.data;
  }

  const client: ApiClient = {
    session,
    url: (path, params) => buildUrl(basePath, path, params),
    get: (path, params, requestOptions) =>
      send(buildUrl(basePath, path, params), { method: 'GET', headers: { Accept: 'application/json' } }, requestOptions),
    post: (path, body = {}, requestOptions) =>
      send(
        buildUrl(basePath, path),
        {
          method: 'POST',
          headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
          // Read the token at send time: a reply that arrived since may have rotated it.
          body: JSON.stringify({ ...body, _csrf: session.get().csrfToken ?? '' }),
        },
        requestOptions,
      ),
    getData: async (path, params, requestOptions) =>
      ensureSuccess(await client.get(path, params, requestOptions), requestOptions?.family),
    postData: async (path, body, requestOptions) =>
      ensureSuccess(await client.post(path, body, requestOptions), requestOptions?.family),
  };
  return client;
}
