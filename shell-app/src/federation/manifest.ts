/**
 * `/mfe-manifest.json`: which build of each microfrontend the shell composes (docs/edge-api.md).
 * Fetched at start-up and on every Retry, never cached, so a team's publish takes effect on the
 * next page load without rebuilding the shell.
 */
import type { MfeManifest, MfeManifestEntry } from '@tiffin/contract';

const MANIFEST_URL = '/mfe-manifest.json';

function isEntry(value: unknown): value is MfeManifestEntry {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.name === 'string' && v.name !== '' && typeof v.entry === 'string' && v.entry !== '' && typeof v.version === 'string';
}

/** Keeps the well-formed entries; a broken entry must not take the other remotes down with it. */
export function parseManifest(json: unknown): MfeManifest {
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('mfe-manifest.json is not an object');
  const manifest: MfeManifest = {};
  for (const [id, entry] of Object.entries(json as Record<string, unknown>)) {
    if (isEntry(entry)) manifest[id] = { name: entry.name, entry: entry.entry, version: entry.version };
    else console.warn(`[shell] ignoring malformed mfe-manifest.json entry "${id}"`);
  }
  return manifest;
}

// Always asked again, but with the copy's validator: an unchanged manifest comes back as a 304.
export async function fetchManifest(fetchImpl: typeof fetch = (...args) => globalThis.fetch(...args)): Promise<MfeManifest> {
  const response = await fetchImpl(MANIFEST_URL, { cache: 'no-cache', credentials: 'same-origin', headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`mfe-manifest.json answered HTTP ${response.status}`);
  return parseManifest(await response.json());
}
