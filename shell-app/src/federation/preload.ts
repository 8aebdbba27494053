/**
 * Starts loading the first route's microfrontend as soon as the shell's entry runs, so its
 * remoteEntry.js and page chunk download while the shell's own chunks (React, the chrome) do,
 * not after React has rendered the boundary that asks for them.
 *
 * City slugs are not known yet at this point, so a one-word path counts as a city page (that
 * route belongs to mfe-discovery); an unknown one only costs a page that 404s that download.
 */
import { resolveRoute, ROUTES } from '../routing/match';
import type { RemoteRegistry } from './registry';

export function preloadRouteRemote(registry: Pick<RemoteRegistry, 'preload'>, pathname: string): void {
  const resolution = resolveRoute(pathname, ROUTES, 'unavailable');
  if (resolution.kind !== 'match' || resolution.route.mfe === 'shell') return;
  registry.preload(resolution.route.mfe, 'App');
}
