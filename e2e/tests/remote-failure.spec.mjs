// ARCHITECTURE.md "Web: runtime composition": a remote that 404s, throws or hangs is contained in
// its RemoteBoundary (role="alert" + Retry); the header, footer and other routes keep working.
// mfe-account owns /support.
import { expect, test } from '@playwright/test';

const ACCOUNT_FILES = '**/mfe/mfe-account/**';
/** The shell's REMOTE_LOAD_TIMEOUT_MS (shell-app/src/federation/registry.ts). */
const SHELL_LOAD_TIMEOUT_MS = 8_000;

function fallbackOf(page, mfe) {
  return page.locator(`main [role="alert"][data-failed-mfe="${mfe}"]`);
}

async function expectContained(page) {
  const fallback = fallbackOf(page, 'mfe-account');
  await expect(fallback).toBeVisible();
  await expect(fallback.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(page.locator('main [data-mfe="mfe-account"]')).toHaveCount(0);
  // The chrome around it still renders.
  await expect(page.getByRole('link', { name: 'Tiffin home' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Cart,/ })).toBeVisible();
  await expect(page.locator('footer')).toBeVisible();
  await expect(page.locator('footer').getByRole('link', { name: 'Help & Support' })).toBeVisible();
}

test('a 404 remote: fallback with Retry, chrome and other routes work, Retry recovers', async ({ page }) => {
  const refused = [];
  await page.route(ACCOUNT_FILES, (route) => {
    refused.push(route.request().url());
    return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' });
  });

  const response = await page.goto('/support');
  await expectContained(page);
  expect(refused.some((url) => url.endsWith('/remoteEntry.js'))).toBe(true);
  // The page's HTML preloaded the remote's chunks too, and they failed with it: the Retry below
  // must not be handed those failures.
  const preloaded = [...(await response.text()).matchAll(/<link rel="preload" href="(\/mfe\/mfe-account\/[^"]+)"/g)].map((m) => m[1]);
  expect(preloaded.filter((path) => !path.endsWith('/remoteEntry.js')).length).toBeGreaterThan(0);

  // Another route, reached from the header in the same page, still works.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Cart,/ }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.locator('main [data-mfe="mfe-cart"]')).toBeVisible();
  await expect(page.locator('main [role="alert"][data-failed-mfe]')).toHaveCount(0);

  await page.goBack();
  await expect(page).toHaveURL(/\/support$/);
  await expectContained(page);

  // The remote is back: Retry loads it without a page reload.
  await page.unroute(ACCOUNT_FILES);
  await fallbackOf(page, 'mfe-account').getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator('main [data-mfe="mfe-account"]')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Help & Support' })).toBeVisible();
  await expect(fallbackOf(page, 'mfe-account')).toHaveCount(0);
});

test('a remote whose remoteEntry.js throws: the same fallback', async ({ page }) => {
  let served = false;
  await page.route(ACCOUNT_FILES, (route) => {
    if (!new URL(route.request().url()).pathname.endsWith('/remoteEntry.js')) return route.fallback();
    served = true;
    return route.fulfill({
      status: 200,
      contentType: 'application/javascript; charset=utf-8',
      body: 'throw new Error("e2e: this remote is broken");\n',
    });
  });

  await page.goto('/support');
  await expectContained(page);
  expect(served).toBe(true);
});

test('a remote that never answers: the same fallback within the shell timeout', async ({ page }) => {
  const held = [];
  let requestedAt = 0;
  await page.route(ACCOUNT_FILES, (route) => {
    requestedAt ||= Date.now();
    held.push(route); // never answered
  });

  await page.goto('/support');
  // While the script hangs, the slot shows the loading state, not the fallback.
  await expect(page.locator('main [aria-busy="true"][aria-label="Loading"]')).toBeVisible();
  await expect(fallbackOf(page, 'mfe-account')).toHaveCount(0);
  expect(held.length).toBeGreaterThan(0);

  await expect(fallbackOf(page, 'mfe-account')).toBeVisible({ timeout: SHELL_LOAD_TIMEOUT_MS + 4_000 });
  const waited = Date.now() - requestedAt;
  // It was the timeout, not an early error, that gave up; and it gave up on time.
  expect(waited).toBeGreaterThan(SHELL_LOAD_TIMEOUT_MS - 1_500);
  expect(waited).toBeLessThan(SHELL_LOAD_TIMEOUT_MS + 4_000);
  await expectContained(page);

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await Promise.all(held.map((route) => route.abort().catch(() => {})));
});
