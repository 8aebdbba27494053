/**
 * Module Federation runtime plugin of the shell (configured in webpack.config.cjs).
 *
 * - `createScript`: a remoteEntry.js that does not answer within the load timeout is given up on
 *   (the runtime's default waits 20 s), so the boundary can show Retry.
 * - `errorLoadRemote`: every failed remote load is logged with the remote and lifecycle stage, and
 *   rethrown so the RemoteBoundary around that remote renders its fallback. Nothing is swallowed:
 *   a fallback module here would hide the failure from the boundary and from Retry.
 */
import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';
import { REMOTE_LOAD_TIMEOUT_MS } from './registry';

export default function remoteLoadPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'tiffin-shell-remote-load',
    createScript() {
      return { timeout: REMOTE_LOAD_TIMEOUT_MS };
    },
    errorLoadRemote({ id, error, lifecycle }) {
      console.error(`[shell] remote module "${id}" failed to load (${lifecycle})`, error);
      throw error;
    },
  };
}
