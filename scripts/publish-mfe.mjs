#!/usr/bin/env node
// Publishes a microfrontend build so the shell composes it on the next page load, without any
// rebuild of the shell:
//
//   node scripts/publish-mfe.mjs <id>|--all [--version <v>] [--static-dir <dir>] [--force]
//
// 1. copies <id>/dist into <static-dir>/mfe/<id>/<version>/ (temp folder + rename);
// 2. under a lock, rewrites that entry of <static-dir>/mfe-manifest.json (temp file + rename):
//    { "<id>": { "name": "<federation name>", "entry": "/mfe/<id>/<version>/remoteEntry.js", "version": "<version>" } }
//
// The version is the one the build was made with (<id>/dist/build-info.json: package.json's
// version, or MFE_VERSION at build time), because the remote renders it as data-mfe-version.
// Published versions are immutable (the edge serves them with a one-year cache): publishing a
// version again with different files is refused unless --force (local builds, `npm run build:web`).
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_STATIC_DIR, fail, readJson, REPO_ROOT, replaceDir, sameTree, withLock, writeFileAtomic } from './publish-lib.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    version: { type: 'string' },
    'static-dir': { type: 'string' },
    all: { type: 'boolean', default: false },
    force: { type: 'boolean', default: false },
  },
});

const ID = /^mfe-[a-z0-9-]+$/;
const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/;

const ids = values.all
  ? readdirSync(REPO_ROOT).filter((name) => ID.test(name) && existsSync(join(REPO_ROOT, name, 'package.json'))).sort()
  : positionals;
if (ids.length === 0) fail('usage: publish-mfe.mjs <id>|--all [--version <v>] [--static-dir <dir>] [--force]');
if (values.all && values.version) fail('--version applies to one microfrontend, not --all');

const staticDir = values['static-dir'] ? resolve(values['static-dir']) : DEFAULT_STATIC_DIR;
const manifestPath = join(staticDir, 'mfe-manifest.json');

for (const id of ids) {
  if (!ID.test(id) || !existsSync(join(REPO_ROOT, id, 'package.json'))) fail(`unknown microfrontend "${id}"`);
  const dist = join(REPO_ROOT, id, 'dist');
  const infoPath = join(dist, 'build-info.json');
  if (!existsSync(infoPath) || !existsSync(join(dist, 'remoteEntry.js'))) {
    fail(`${id} is not built: run \`npx nx run ${id}:build\` first`);
  }
  const info = readJson(infoPath);
  const version = values.version ?? info.version;
  if (!VERSION.test(version)) fail(`invalid version "${version}"`);
  if (version !== info.version) {
    fail(`${id}/dist was built as ${info.version}; rebuild with MFE_VERSION=${version} so the app reports the version it is published as`);
  }

  const target = join(staticDir, 'mfe', id, version);
  if (existsSync(target) && sameTree(dist, target)) {
    console.log(`${id}@${version}: already published with the same files`);
  } else if (existsSync(target) && !values.force) {
    fail(`${id}@${version} is already published with different files; published versions are immutable, so bump the version (or pass --force for a local build)`);
  } else {
    replaceDir(dist, target);
    console.log(`${id}@${version}: copied to ${target}`);
  }

  await withLock(manifestPath, async () => {
    const manifest = existsSync(manifestPath) ? readJson(manifestPath) : {};
    manifest[id] = { name: info.name, entry: `/mfe/${id}/${version}/remoteEntry.js`, version };
    const sorted = Object.fromEntries(Object.keys(manifest).sort().map((key) => [key, manifest[key]]));
    writeFileAtomic(manifestPath, `${JSON.stringify(sorted, null, 2)}\n`);
  });
  console.log(`${id}@${version}: ${manifestPath} now points at /mfe/${id}/${version}/remoteEntry.js`);
}
