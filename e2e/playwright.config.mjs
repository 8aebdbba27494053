// Browser end-to-end tests: the real storefront (launcher, every service, the edge) in Debian's
// Chromium. Global set-up starts it on its own ports with a throwaway data dir and a copy of the
// web build, so tests may publish microfrontends without touching dist/web or a running `make run`.
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT || 18080);

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // One storefront, one browser: tests that republish a microfrontend must not race others.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [['list']],
  outputDir: '../test-results',
  globalSetup: './global-setup.mjs',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
