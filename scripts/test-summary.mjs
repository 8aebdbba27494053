#!/usr/bin/env node
// Prints one closing line for all web unit tests, summed from the Vitest JSON reports each project
// writes to test-results/unit/<project>/vitest.json (also restored from the Nx cache), and fails when any test
// failed or a project produced no report.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readJson, REPO_ROOT } from './publish-lib.mjs';

const projects = [
  ...readdirSync(join(REPO_ROOT, 'libs')).map((name) => join('libs', name)),
  ...readdirSync(REPO_ROOT).filter((name) => name === 'shell-app' || name.startsWith('mfe-')),
].filter((dir) => existsSync(join(REPO_ROOT, dir, 'package.json')) && readJson(join(REPO_ROOT, dir, 'package.json')).scripts?.test);

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const dir of projects) {
  const report = join(REPO_ROOT, 'test-results', 'unit', dir, 'vitest.json');
  if (!existsSync(report)) {
    missing.push(dir);
    continue;
  }
  const r = readJson(report);
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
}
if (missing.length > 0) console.error(`no test report from: ${missing.join(', ')}`);
console.log(`web: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 || passed === 0 ? 1 : 0);
