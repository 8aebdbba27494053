// Starts the whole storefront for the browser tests and returns its teardown.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Waits until the edge's admin listener reports every service up: the edge's public /readyz is
// its own readiness only, and the tests need the whole storefront.
async function waitReady(adminUrl, timeoutMs) {
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
  throw new Error(`storefront not ready at ${adminUrl} after ${timeoutMs} ms (see test-results/storefront.log)`);
}

export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT || 18080);
  // Below the kernel's ephemeral range (32768-60999), so no outgoing connection can take a
  // service's port before it binds (services/launcher: DEFAULT_GRPC_BASE_PORT).
  const grpcBase = Number(process.env.E2E_GRPC_BASE_PORT || 21051);
  // The edge's admin listener, after the eight services' ports.
  const adminPort = Number(process.env.E2E_ADMIN_PORT || grpcBase + 8);
  const binDir = process.env.TIFFIN_BIN_DIR || join(process.env.CARGO_TARGET_DIR || join(root, 'target'), 'debug');
  const launcher = join(binDir, 'tiffin');
  if (!existsSync(launcher)) throw new Error(`${launcher} not built: run \`cargo build --workspace --bins\``);
  const webBuild = join(root, 'dist', 'web');
  if (!existsSync(join(webBuild, 'mfe-manifest.json'))) throw new Error('dist/web not built: run `npm run build:web`');

  const work = mkdtempSync(join(tmpdir(), 'tiffin-e2e-'));
  const staticDir = join(work, 'web');
  cpSync(webBuild, staticDir, { recursive: true });
  mkdirSync(join(root, 'test-results'), { recursive: true });
  const log = openSync(join(root, 'test-results', 'storefront.log'), 'w');

  const child = spawn(launcher, [], {
    env: {
      ...process.env,
      PORT: String(port),
      GRPC_BASE_PORT: String(grpcBase),
      EDGE_ADMIN_PORT: String(adminPort),
      DATA_DIR: join(work, 'data'),
      STATIC_DIR: staticDir,
      CATALOG_RESTAURANTS_PER_CITY: '12',
      TIFFIN_BIN_DIR: binDir,
      // A development storefront (the launcher declares it too): the account tests read OTPs and
      // links from the development outbox (GET /api/dev/sms), which exists only there.
      TIFFIN_ENV: 'development',
      // Deliveries 120 times faster than real time: an order is delivered in about 20 s.
      ORDERS_SIM_SPEED: '120',
    },
    stdio: ['ignore', log, log],
  });
  // Tests publish microfrontends into this copy of the web build.
  process.env.TIFFIN_E2E_STATIC_DIR = staticDir;
  process.env.TIFFIN_E2E_ROOT = root;

  const exited = new Promise((_, reject) =>
    child.once('exit', (code) => reject(new Error(`launcher exited early (${code}); see test-results/storefront.log`))),
  );
  await Promise.race([waitReady(`http://127.0.0.1:${adminPort}`, 120_000), exited]);

  return async () => {
    child.removeAllListeners('exit');
    const stopped = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([stopped, new Promise((r) => setTimeout(r, 20_000))]);
    rmSync(work, { recursive: true, force: true });
  };
}
