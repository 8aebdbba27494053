// What a first visit downloads, per route: every script and stylesheet a fresh browser (empty
// cache, new context) fetches while the page loads and settles, counted in compressed bytes as
// they came over the wire (brotli: the Content-Length of the encoded body), printed as a table,
// with the landing, listing and menu pages held to a JavaScript budget. The budget is what keeps
// the storefront quick on a phone: each page is the shell (React, the chrome, the federation
// runtime) plus the one microfrontend that owns the route, and nothing else. (Stylesheets are
// counted too, though today every style travels inside the scripts that use it.)
import { expect, test } from '@playwright/test';
import { KORAMANGALA, restaurantWithPlainDish } from '../support/customer.mjs';

/** Compressed JavaScript per route, in bytes (1 kB = 1000 bytes, so the budget is not rounded up). */
const JS_BUDGET = 150_000;
const kB = (bytes) => (bytes / 1000).toFixed(1);

const ROUTES = [
  { name: 'landing', path: () => '/', located: false, ready: (page) => page.getByRole('button', { name: 'FIND FOOD' }) },
  { name: 'listing', path: () => '/restaurants', located: true, ready: (page) => page.getByTestId('restaurant-card').first() },
  {
    name: 'menu',
    path: ({ restaurant }) => `/menu/${restaurant.id}`,
    located: true,
    ready: (page, { dish }) => page.locator(`[data-testid="menu-item"][data-item-id="${dish.id}"]`).first(),
  },
];

/**
 * Opens `path` in a new context and returns every script and stylesheet it downloaded: the
 * encoded body size is the body as sent (after Content-Encoding), not the decoded size.
 */
async function firstVisit(browser, baseURL, { path, located, ready }) {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'Accept-Encoding': 'br' } });
  if (located) {
    await context.addCookies([{ name: 'userLocation', value: encodeURIComponent(JSON.stringify(KORAMANGALA)), url: baseURL }]);
  }
  const page = await context.newPage();
  const pending = [];
  page.on('requestfinished', (request) => {
    const path = new URL(request.url()).pathname;
    // The shell fetches the route's remoteEntry.js ahead (into the cache) before its script tag
    // runs it: a fetched script counts as a script.
    const type = request.resourceType() === 'fetch' && path.endsWith('.js') ? 'script' : request.resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      (async () => {
        const response = await request.response();
        const { responseBodySize } = await request.sizes();
        // The body as sent is the Content-Length of the compressed body; a read from the cache
        // transfers nothing (the browser reports no body size, or a negative one, for it).
        const sent = Number(response?.headers()['content-length'] ?? Number.NaN);
        return {
          type,
          path,
          bytes: responseBodySize <= 0 ? 0 : Number.isFinite(sent) ? sent : responseBodySize,
          encoding: response?.headers()['content-encoding'] ?? 'identity',
        };
      })(),
    );
  });
  await page.goto(path);
  await expect(ready(page)).toBeVisible();
  await page.waitForLoadState('networkidle');
  // One row per file with every byte downloaded for it: a file read again from the cache (the
  // prefetched entry's script tag) adds nothing, one downloaded twice counts twice.
  const byPath = new Map();
  for (const file of await Promise.all(pending)) {
    const seen = byPath.get(file.path);
    byPath.set(file.path, seen ? { ...seen, bytes: seen.bytes + file.bytes, encoding: seen.bytes >= file.bytes ? seen.encoding : file.encoding } : file);
  }
  await context.close();
  return [...byPath.values()];
}

function table(name, files) {
  const rows = [...files].sort((a, b) => b.bytes - a.bytes).map((f) => `  ${f.type.padEnd(10)} ${kB(f.bytes).padStart(7)} kB  ${f.encoding.padEnd(8)} ${f.path}`);
  const js = files.filter((f) => f.type === 'script').reduce((sum, f) => sum + f.bytes, 0);
  const css = files.filter((f) => f.type === 'stylesheet').reduce((sum, f) => sum + f.bytes, 0);
  return { js, css, text: [`${name}: JS ${kB(js)} kB in ${files.filter((f) => f.type === 'script').length} files, CSS ${kB(css)} kB`, ...rows].join('\n') };
}

test('a first visit to landing, listing and menu downloads at most 150 kB of JavaScript, compressed', async ({ browser, baseURL, request }, testInfo) => {
  const fixtures = await restaurantWithPlainDish(request);
  const summary = [];
  const over = [];
  for (const route of ROUTES) {
    const files = await firstVisit(browser, baseURL, { path: route.path(fixtures), located: route.located, ready: (page) => route.ready(page, fixtures) });
    const { js, css, text } = table(`${route.name} (${route.path(fixtures)})`, files);
    console.log(text);
    await testInfo.attach(`${route.name}.txt`, { body: text, contentType: 'text/plain' });
    summary.push(`${route.name.padEnd(8)} JS ${kB(js).padStart(6)} kB  CSS ${kB(css).padStart(5)} kB`);

    // Every script came compressed: the number above is what a phone really downloads.
    for (const file of files.filter((f) => f.bytes > 1024)) {
      expect(file.encoding, `${file.path} is sent compressed`).toBe('br');
    }
    // The shell and the route's own microfrontend, and no other remote.
    const remotes = [...new Set(files.map((f) => /^\/mfe\/([^/]+)\//.exec(f.path)?.[1]).filter(Boolean))];
    expect(remotes, `${route.name} loads only the remote that owns it`).toEqual(['mfe-discovery']);
    // That remote's entry once (the federation runtime itself is in the shell's main.js).
    expect(files.filter((f) => f.path.endsWith('/remoteEntry.js')).length, `${route.name}: remoteEntry.js files`).toBe(1);

    if (js > JS_BUDGET) over.push(`${route.name}: ${kB(js)} kB of JS, over the ${kB(JS_BUDGET)} kB budget`);
  }
  console.log(`first visit, compressed (budget: JS ${kB(JS_BUDGET)} kB)\n${summary.join('\n')}`);
  expect(over, 'routes over the JS budget').toEqual([]);
});
