#!/usr/bin/env node
// Checks the web apps' builds (shell-app/dist, mfe-*/dist: what publishing copies into dist/web)
// for what the edge relies on, and fails with the offending files named (`npm run build:web`
// runs it). Published folders are not checked: the shell's keeps older builds' chunks.
//
//   node scripts/check-web-build.mjs [--list]
//
// 1. Precompressed: every .js, .css, .html, .json and .svg over 1 KB has a .br and a .gz beside
//    it (libs/build-config/webpack.cjs) that decompress to the file itself.
// 2. Named by content: every script and stylesheet carries an 8-hex content hash in its name, but
//    the entry points whose names others hold: the shell's main.js (index.html asks for it with
//    ?<build hash>) and each microfrontend's remoteEntry.js (mfe-manifest.json points at it, under
//    its immutable /mfe/<id>/<version>/ folder), and a microfrontend's first-paint.css, which the
//    edge reads from that same folder by its first-paint.json and inlines (no browser asks for it).
// --list prints every script and stylesheet as hashed or fixed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { fail, listFiles, REPO_ROOT } from './publish-lib.mjs';

const { COMPRESSIBLE, COMPRESS_THRESHOLD } = createRequire(import.meta.url)('../libs/build-config/webpack.cjs');
const { values } = parseArgs({ options: { list: { type: 'boolean', default: false } } });
const apps = ['shell-app', ...readdirSync(REPO_ROOT).filter((name) => /^mfe-[a-z0-9-]+$/.test(name)).sort()];

const FIXED_NAMES = new Set(['main.js', 'remoteEntry.js', 'first-paint.css']);
const HASHED = /\.[0-9a-f]{8}\.(js|css)$/;
const problems = [];
let compressed = 0;
const named = { hashed: [], fixed: [] };

for (const app of apps) {
  const dir = join(REPO_ROOT, app, 'dist');
  if (!existsSync(join(dir, 'build-info.json'))) fail(`${app} is not built (no ${app}/dist/build-info.json)`);
  for (const file of listFiles(dir).map((f) => join(dir, f))) {
    const name = relative(REPO_ROOT, file);
    const base = name.split('/').pop();
    if (COMPRESSIBLE.test(base)) {
      const original = readFileSync(file);
      if (original.length > COMPRESS_THRESHOLD) {
        for (const [ext, decompress] of [['.br', brotliDecompressSync], ['.gz', gunzipSync]]) {
          let copy;
          try {
            copy = readFileSync(file + ext);
          } catch {
            problems.push(`${name}: no ${ext} beside it`);
            continue;
          }
          if (!decompress(copy).equals(original)) problems.push(`${name}${ext}: does not decompress to ${name}`);
          else compressed += 1;
        }
      }
    }
    if (/\.(js|css)$/.test(base)) {
      if (FIXED_NAMES.has(base)) named.fixed.push(name);
      else if (HASHED.test(base)) named.hashed.push(name);
      else problems.push(`${name}: a script or stylesheet without a content hash in its name`);
    }
  }
}

if (values.list) {
  for (const name of named.fixed) console.log(`fixed   ${name}`);
  for (const name of named.hashed) console.log(`hashed  ${name}`);
}
if (problems.length > 0) fail(`web build check failed:\n  ${problems.join('\n  ')}`);
console.log(`web build: ${compressed} precompressed copies checked; ${named.hashed.length} scripts and stylesheets named by content, ${named.fixed.length} entry points by name (${[...FIXED_NAMES].join(', ')})`);
