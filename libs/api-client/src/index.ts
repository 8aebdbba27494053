/**
 * @tiffin/api-client — the request conventions against the edge (docs/edge-api.md).
 *
 * `apiClient` and `edge` are the instances the apps use; this package is a Module Federation
 * singleton, so the session refreshed by one microfrontend's call is the one every other sends.
 * Never call `fetch` on `/api/` anywhere else.
 */
import { createEdgeCalls } from './calls';
import { createApiClient } from './client';

export * from './client';
export * from './calls';
export * from './envelope';
export * from './errors';
export * from './idempotency';
export * from './initial-reply';
export * from './session';
export * from './slugs';

export const apiClient = createApiClient();
export const edge = createEdgeCalls(apiClient);
