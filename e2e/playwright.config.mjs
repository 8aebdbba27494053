// Browser end-to-end tests: the real storefront (launcher, every service, the edge) in Debian's
// Chromium. Global set-up starts it on its own ports with a throwaway data dir and a copy of the
// web build, so tests may publish microfrontends without touching dist/web or a running `make run`.
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT || 18080);

/** The specs that run with nothing beside them (see `workers`). */
const ALONE = /(remote-republish|first-paint|layout-shift|screens)\.spec\.mjs$/;

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // One storefront, two browsers. Most specs sign up customers of their own and only read the shared
  // catalogue, so they run two at a time: much of a browser test is waiting (on a delivery
  // simulated in seconds, on a page's requests), which a second worker fills. The specs that change
  // what every page loads (republishing a microfrontend) or that measure time and pixels (first
  // paint, layout shift, screenshots) are the project 'alone', which `npm run test:e2e` runs
  // after the others, one at a time, with nothing beside them (a second run rather than a project
  // dependency, which would skip them whenever an earlier test failed).
  workers: 2,
  fullyParallel: false,
  retries: 0,
  reporter: [['list']],
  outputDir: '../test-results',
  // One screenshot per page and width whichever project takes it (the default path names the project).
  snapshotPathTemplate: '{testDir}/{testFileDir}/{testFileName}-snapshots/{arg}{-snapshotSuffix}{ext}',
  globalSetup: './global-setup.mjs',
  projects: [
    { name: 'together', testIgnore: ALONE },
    { name: 'alone', testMatch: ALONE, workers: 1 },
  ],
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
