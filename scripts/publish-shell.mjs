#!/usr/bin/env node
// Publishes the shell build: copies shell-app/dist into <static-dir>/shell/ (default dist/web).
//
//   node scripts/publish-shell.mjs [--static-dir <dir>]
//
// Files are replaced one by one (temp file + rename), index.html last, so a request never sees a
// page that references files not yet copied. Hashed chunks of older builds are left in place:
// pages already open in browsers may still ask for them.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { copyFileAtomic, DEFAULT_STATIC_DIR, fail, listFiles, REPO_ROOT } from './publish-lib.mjs';

const { values } = parseArgs({ options: { 'static-dir': { type: 'string' } } });
const staticDir = values['static-dir'] ? resolve(values['static-dir']) : DEFAULT_STATIC_DIR;
const dist = join(REPO_ROOT, 'shell-app', 'dist');
for (const required of ['index.html', 'main.js', 'routes.json']) {
  if (!existsSync(join(dist, required))) fail(`shell-app is not built (no dist/${required}): run \`npx nx run shell-app:build\` first`);
}

const target = join(staticDir, 'shell');
const files = listFiles(dist).sort((a, b) => (a === 'index.html') - (b === 'index.html'));
for (const file of files) copyFileAtomic(join(dist, file), join(target, file));
console.log(`shell: ${files.length} files copied to ${target}`);
