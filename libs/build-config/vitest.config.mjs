// The one Vitest config for every web project. Each project's `test` script runs
// `vitest run --config <path to this file>` from its own folder (Nx runs package scripts with the
// project as the working directory), so the project root is taken from the cwd, not from here.
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const projectRoot = process.cwd();
const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
const workspaceRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
// Outside the project folders (so the Makefile's web-source scan does not see them) and under the
// git-ignored test-results/; declared as the Nx `test` output so cache hits restore them.
const reportFile = join(workspaceRoot, 'test-results', 'unit', relative(workspaceRoot, projectRoot), 'vitest.json');

export default defineConfig({
  root: projectRoot,
  // Same value the webpack build injects, so a remote's tests see the version it would publish.
  define: { __MFE_VERSION__: JSON.stringify(process.env.MFE_VERSION || pkg.version) },
  esbuild: { jsx: 'automatic' },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    setupFiles: [fileURLToPath(new URL('./vitest.setup.mjs', import.meta.url))],
    // Above the set-up's wait bound, so a test whose wait runs out fails on what it waited for.
    testTimeout: 20_000,
    // The JSON report feeds scripts/test-summary.mjs, which prints one total line for the workspace.
    reporters: ['default', ['json', { outputFile: reportFile }]],
  },
});
