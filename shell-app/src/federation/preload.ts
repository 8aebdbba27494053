/**
 * Starts loading the first route's microfrontend as soon as the shell's entry runs, so its
 * remoteEntry.js and page chunk download while the shell's own chunks (React, the chrome) do,
 * not after React has rendered the boundary that asks for them.
 *
 * City slugs are not known yet at this point; the edge's verdict on the document's path (the
 * route it answered with, or its 404) decides whether a one-word path is a city page, so a path
 * that is not found loads no microfrontend. Without a verdict a one-word path counts as a city
 * page (that route belongs to mfe-discovery).
 */
import type { RouteVerdict } from '../initial-state';
import { citiesDecidedByEdge, resolveRoute, ROUTES } from '../routing/match';
import type { RemoteRegistry } from './registry';

export function preloadRouteRemote(registry: Pick<RemoteRegistry, 'preload'>, pathname: string, verdict?: RouteVerdict): void {
  const resolution = resolveRoute(pathname, ROUTES, citiesDecidedByEdge(pathname, verdict, ROUTES) ?? 'unavailable');
  if (resolution.kind !== 'match' || resolution.route.mfe === 'shell') return;
  registry.preload(resolution.route.mfe, 'App');
}
