/**
 * The shell's single RemoteRegistry, bound to the Module Federation runtime that the webpack
 * plugin initialised for this host (remotes: {} at build time; everything registered here), from
 * the manifest the page was served with.
 */
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { initialManifest } from '../initial-state';
import { RemoteRegistry } from './registry';

export const remoteRegistry = new RemoteRegistry({
  initialManifest,
  runtime: {
    registerRemotes: (remotes, options) => registerRemotes(remotes, options),
    loadRemote: <T,>(id: string) => loadRemote<T>(id),
  },
});
