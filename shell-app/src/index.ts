// The async boundary Module Federation needs before shared modules (React, @tiffin/*) are used.
// The route's microfrontend starts loading first, beside the shell's own chunks (federation/preload).
import { preloadRouteRemote } from './federation/preload';
import { afterFirstPaint, startPreloads } from './federation/preload-later';
import { remoteRegistry } from './federation/runtime';
import { initialPreloadLater, initialRouteVerdict } from './initial-state';

function start(): void {
  startPreloads(initialPreloadLater());
  preloadRouteRemote(remoteRegistry, window.location.pathname, initialRouteVerdict());
  import('./bootstrap');
}

// A page whose first screen came with the HTML is painted before the shell asks for anything more;
// any other page has nothing to show until the shell runs, so it starts at once.
if (initialPreloadLater()) afterFirstPaint(start);
else start();
