// Starts the whole storefront (the launcher, every service, the edge) on its own ports with a
// throwaway data dir and a copy of the web build, for the browser tests and the page audit: what
// they measure or change never touches dist/web or a running `make run`.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

// Waits until the edge's admin listener reports every service up: the edge's public /readyz is
// its own readiness only, and the pages need the whole storefront.
async function waitReady(adminUrl, timeoutMs, logPath) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const reply = await fetch(`${adminUrl}/upstreams`);
      if (reply.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`storefront not ready at ${adminUrl} after ${timeoutMs} ms (see ${logPath})`);
}

/**
 * Starts the storefront from `binDir`'s `tiffin` on `port` (services from `grpcBase`, the edge's
 * admin listener on `adminPort`), logging to `logPath`, and resolves once every service answers.
 * Answers the static dir it serves (a copy of dist/web) and `stop()`, which ends it and removes
 * its data. `env` adds to the launcher's environment.
 */
export async function startStorefront({ port, grpcBase, adminPort, binDir, logPath, env = {} }) {
  const launcher = join(binDir, 'tiffin');
  if (!existsSync(launcher)) throw new Error(`${launcher} not built: run \`cargo build --workspace --bins\``);
  const webBuild = join(root, 'dist', 'web');
  if (!existsSync(join(webBuild, 'mfe-manifest.json'))) throw new Error('dist/web not built: run `npm run build:web`');

  const work = mkdtempSync(join(tmpdir(), 'tiffin-storefront-'));
  const staticDir = join(work, 'web');
  cpSync(webBuild, staticDir, { recursive: true });
  mkdirSync(dirname(logPath), { recursive: true });
  const log = openSync(logPath, 'w');

  const child = spawn(launcher, [], {
    env: {
      ...process.env,
      PORT: String(port),
      GRPC_BASE_PORT: String(grpcBase),
      EDGE_ADMIN_PORT: String(adminPort),
      DATA_DIR: join(work, 'data'),
      STATIC_DIR: staticDir,
      TIFFIN_BIN_DIR: binDir,
      ...env,
    },
    stdio: ['ignore', log, log],
  });

  const exited = new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`launcher exited early (${code}); see ${logPath}`))));
  await Promise.race([waitReady(`http://127.0.0.1:${adminPort}`, 120_000, logPath), exited]);

  return {
    staticDir,
    async stop() {
      child.removeAllListeners('exit');
      const stopped = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([stopped, new Promise((r) => setTimeout(r, 20_000))]);
      rmSync(work, { recursive: true, force: true });
    },
  };
}
