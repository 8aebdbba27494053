/**
 * What the edge wrote into this page for the shell itself, read once from the page's initial
 * state: the live microfrontend manifest (what `/mfe-manifest.json` answers), its verdict on
 * the document's path (which route answered it, or none: the edge answered 404), and the count of
 * the visitor's cart for the header.
 *
 * The entry (index.ts) reads it before the federation share scope exists, so nothing here may
 * import a shared library; the element's id is therefore spelled here as well as in
 * @tiffin/api-client's session, which reads the same element.
 */
const ELEMENT_ID = 'tiffin-initial-state';

export interface RouteVerdict {
  /** The path the edge answered (as requested: percent-encoded, no query). */
  path: string;
  /** The route's id in routes.json; `null` when the edge answered 404. */
  id: string | null;
}

/** What a page with a first paint leaves the shell to preload (its HTML names none of it). */
export interface PreloadLater {
  /** The shell's own start-up chunks. */
  scripts: string[];
  /** The route's microfrontend's entry and first scripts, preloaded as `fetch`. */
  fetches: string[];
}

interface ShellState {
  manifest?: unknown;
  cartCount?: number;
  route?: RouteVerdict;
  preloadLater?: PreloadLater;
}

/** Paths on this site only: the list comes from the page, but a preload never leaves it. */
function sitePaths(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.startsWith('/') && !v.startsWith('//')) : [];
}

let cached: ShellState | undefined;

function read(): ShellState {
  if (typeof document === 'undefined') return {};
  const text = document.getElementById(ELEMENT_ID)?.textContent;
  if (!text) return {};
  try {
    const state = JSON.parse(text) as Record<string, unknown> | null;
    if (!state || typeof state !== 'object') return {};
    const out: ShellState = {};
    if (state.manifest && typeof state.manifest === 'object') out.manifest = state.manifest;
    if (typeof state.cartCount === 'number' && Number.isInteger(state.cartCount) && state.cartCount >= 0) out.cartCount = state.cartCount;
    const route = state.route as Record<string, unknown> | undefined;
    if (route && typeof route === 'object' && typeof route.path === 'string' && (route.id === null || typeof route.id === 'string')) {
      out.route = { path: route.path, id: route.id };
    }
    const later = state.preloadLater as Record<string, unknown> | undefined;
    if (later && typeof later === 'object') out.preloadLater = { scripts: sitePaths(later.scripts), fetches: sitePaths(later.fetches) };
    return out;
  } catch {
    return {};
  }
}

function state(): ShellState {
  cached ??= read();
  return cached;
}

/** The manifest the page was served with, as written (to be checked by parseManifest). */
export function initialManifest(): unknown {
  return state().manifest;
}

/** Units in the visitor's cart when the page was served, when the edge could say. */
export function initialCartCount(): number | undefined {
  return state().cartCount;
}

/** The edge's verdict on the document's path, when the page carries one. */
export function initialRouteVerdict(): RouteVerdict | undefined {
  return state().route;
}

/** The scripts this page leaves to the shell to preload, when it has a first paint. */
export function initialPreloadLater(): PreloadLater | undefined {
  return state().preloadLater;
}

/** Reads the page's initial state again (tests). */
export function resetInitialStateForTests(): void {
  cached = undefined;
}
