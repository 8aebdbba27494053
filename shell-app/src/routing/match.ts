/**
 * Route matching against the one route table (`src/routes.json`), which the edge also reads to
 * answer 200 or 404. The rules here are the rules the edge must follow:
 *
 * 1. Match `location.pathname` as sent (still percent-encoded, no query string).
 * 2. Try routes in file order; the first whose pattern matches wins…
 * 3. …unless it has `city: true` and its `city` group is not a known city slug: then keep trying.
 * 4. Nothing left: not found (404).
 */
import type { MatchedRoute, PageType, RouteDefinition } from '@tiffin/contract';
import type { RouteVerdict } from '../initial-state';
import routeTable from '../routes.json';

interface CompiledRoute extends RouteDefinition {
  regex: RegExp;
}

function compileRoutes(table: readonly RouteDefinition[]): CompiledRoute[] {
  return table.map((route) => ({ ...route, regex: new RegExp(route.pattern) }));
}

export const ROUTES: readonly CompiledRoute[] = compileRoutes(routeTable as RouteDefinition[]);

/**
 * Known city slugs: a set once loaded, `'loading'` before the list arrives, `'unavailable'` when the
 * list could not be fetched (then city routes are accepted: the edge already checked the city when
 * it served the page, and the page itself reports an unknown city).
 */
export type KnownCities = ReadonlySet<string> | 'loading' | 'unavailable';

type RouteResolution =
  | { kind: 'match'; route: CompiledRoute; match: MatchedRoute }
  | { kind: 'pending' }
  | { kind: 'not-found' };

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function resolveRoute(pathname: string, routes: readonly CompiledRoute[], cities: KnownCities): RouteResolution {
  for (const route of routes) {
    const result = route.regex.exec(pathname);
    if (!result) continue;
    const params: Record<string, string> = {};
    for (const [name, value] of Object.entries(result.groups ?? {})) {
      if (value !== undefined) params[name] = decode(value);
    }
    if (route.city) {
      if (cities === 'loading') return { kind: 'pending' };
      if (cities !== 'unavailable' && !cities.has((params.city ?? '').toLowerCase())) continue;
    }
    return { kind: 'match', route, match: { id: route.id, params, pageType: route.pageType } };
  }
  return { kind: 'not-found' };
}

/**
 * The cities to route `pathname` by when the edge has already decided that very path (it served
 * this document, and it answers 404 exactly when no route takes the path): the city of the route
 * it chose, or none at all. A one-word path the edge found no city for is then not found at
 * once, without waiting for the city list or loading the city page's microfrontend, and a city
 * page needs no list to start. `undefined` for any other path: the city list decides.
 */
export function citiesDecidedByEdge(pathname: string, verdict: RouteVerdict | undefined, routes: readonly CompiledRoute[]): KnownCities | undefined {
  if (!verdict || verdict.path !== pathname) return undefined;
  const route = verdict.id === null ? undefined : routes.find((r) => r.id === verdict.id);
  if (verdict.id !== null && !route) return undefined; // a route this shell does not know: ask the list
  const resolution = route?.city ? resolveRoute(pathname, [route], 'unavailable') : undefined;
  const city = resolution?.kind === 'match' ? resolution.match.params.city : undefined;
  return new Set(city === undefined ? [] : [city.toLowerCase()]);
}

/**
 * The page type the header is configured for. Home is the landing page without a location and
 * the restaurant listing with one, so it takes the listing's header then.
 */
export function effectivePageType(match: MatchedRoute, hasLocation: boolean): PageType {
  if (match.pageType === 'HOME' && match.id === 'home' && hasLocation) return 'LISTING';
  return match.pageType;
}
