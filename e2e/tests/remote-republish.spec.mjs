// README "A microfrontend ships on its own": rebuild one remote under a new version, publish it into
// the running storefront's static dir, and the next page load composes it; the shell is untouched.
//
// Idempotent: every run publishes a fresh version into the throwaway static dir of this e2e run, and
// mfe-checkout/dist in the repository is put back as it was, so a later publish of dist/web does not
// pick up the e2e build.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';

const run = promisify(execFile);
const MFE = 'mfe-checkout';

function hashTree(dir) {
  const hashes = {};
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else hashes[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(dir);
  return hashes;
}

test('republishing mfe-checkout changes what /payments renders, without touching the shell', async ({ page, request }) => {
  test.setTimeout(300_000);
  const root = process.env.TIFFIN_E2E_ROOT;
  const staticDir = process.env.TIFFIN_E2E_STATIC_DIR;
  expect(root && staticDir, 'set by e2e/global-setup.mjs').toBeTruthy();

  const shellBefore = hashTree(join(staticDir, 'shell'));
  expect(Object.keys(shellBefore)).toContain('index.html');

  const mfeRoot = page.locator(`main [data-mfe="${MFE}"]`);
  // /payments, not /checkout: it is the remote's page a visitor with an empty cart sees in full.
  await page.goto('/payments');
  await expect(mfeRoot).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Payment options' })).toBeVisible();
  const before = await mfeRoot.getAttribute('data-mfe-version');
  expect(before).toBeTruthy();

  const version = `0.1.0-e2e.${Date.now()}`;
  expect(version).not.toBe(before);
  const dist = join(root, MFE, 'dist');
  const backup = mkdtempSync(join(tmpdir(), `tiffin-e2e-${MFE}-dist-`));
  const hadDist = existsSync(dist);
  if (hadDist) cpSync(dist, backup, { recursive: true });
  try {
    await test.step(`build ${MFE} as ${version}`, async () => {
      await run('npx', ['nx', 'run', `${MFE}:build`, '--skip-nx-cache'], {
        cwd: root,
        env: { ...process.env, MFE_VERSION: version, NX_NO_CLOUD: 'true', NX_DAEMON: 'false' },
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(JSON.parse(readFileSync(join(dist, 'build-info.json'), 'utf8')).version).toBe(version);
    });
    await test.step(`publish ${MFE}@${version} into the running storefront`, async () => {
      await run('node', ['scripts/publish-mfe.mjs', MFE, '--version', version, '--static-dir', staticDir], { cwd: root });
    });
  } finally {
    rmSync(dist, { recursive: true, force: true });
    if (hadDist) cpSync(backup, dist, { recursive: true });
    rmSync(backup, { recursive: true, force: true });
  }

  const manifestReply = await request.get('/mfe-manifest.json');
  expect(manifestReply.status()).toBe(200);
  expect(manifestReply.headers()['cache-control'] ?? '').toMatch(/no-store|no-cache/);
  expect((await manifestReply.json())[MFE]).toEqual({
    name: 'mfe_checkout',
    entry: `/mfe/${MFE}/${version}/remoteEntry.js`,
    version,
  });

  // The already-open page picks the new build up on its next load.
  const newEntry = page.waitForResponse((r) => r.url().endsWith(`/mfe/${MFE}/${version}/remoteEntry.js`) && r.ok());
  await page.reload();
  await newEntry;
  await expect(mfeRoot).toHaveAttribute('data-mfe-version', version);
  await expect(page.getByRole('heading', { name: 'Payment options' })).toBeVisible();

  // No shell rebuild: every file of the shell is byte-identical.
  expect(hashTree(join(staticDir, 'shell'))).toEqual(shellBefore);
});
