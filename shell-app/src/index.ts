// The async boundary Module Federation needs before shared modules (React, @tiffin/*) are used.
// The route's microfrontend starts loading first, beside the shell's own chunks (federation/preload).
import { preloadRouteRemote } from './federation/preload';
import { remoteRegistry } from './federation/runtime';
import { initialRouteVerdict } from './initial-state';

preloadRouteRemote(remoteRegistry, window.location.pathname, initialRouteVerdict());
import('./bootstrap');
