// The page audit (make audit): Lighthouse with its default mobile settings (a mid-range phone's
// screen, 4x slower CPU, slow 4G, simulated) on the pages a customer meets first: the landing
// page of a new visitor, the listing and a menu of a visitor located in Koramangala, and the cart
// with a dish in it. It starts its own storefront (as the browser tests do) on its own ports, so
// a running `make run` or test suite is left alone, and writes, for each page, the scores and the
// metrics the storefront is held to, next to Lighthouse's full reports:
//   <out>/summary.json, <out>/summary.md   the table (also printed)
//   <out>/<page>.report.html, .json        Lighthouse's own report, to see what to fix
// Lighthouse's scores move by a few points between runs on a busy machine: `--runs 3` audits each
// page three times and keeps its median run (by performance score).
//
// A 4x slower CPU means a different phone on every host: the machines this runs on have measured
// Lighthouse's benchmark index anywhere from about 800 to 3,900. So right before each run the
// browser measures that index, and the table shows it beside each page. `--cpu-slowdown auto`
// calibrates the slowdown to the host instead, as Lighthouse's throttling guide describes: the
// factor that brings this host to the mid-tier phone its mobile preset stands for
// (`slowdownFor`); `--cpu-slowdown N` sets any other factor.
//
//   node e2e/audit/audit.mjs [--runs N] [--out DIR] [--cpu-slowdown 4|auto|N]
// Binaries: TIFFIN_BIN_DIR, else $CARGO_TARGET_DIR/release when built there, else …/debug (the
// pages' assets are the same either way; the API is slower on a debug build).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request as playwrightRequest } from '@playwright/test';
import lighthouse from 'lighthouse';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import puppeteer from 'puppeteer-core';
import { data, fillCart, koramangalaCookie, restaurantWithPlainDish } from '../support/customer.mjs';
import { root, startStorefront } from '../support/storefront.mjs';

/** What every page is held to. */
const GOALS = { performance: 95, accessibility: 95, lcpMs: 1500, cls: 0.05 };

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: process.env.AUDIT_RUNS || '1' },
    out: { type: 'string' },
    'cpu-slowdown': { type: 'string', default: process.env.AUDIT_CPU_SLOWDOWN || '4' },
  },
});
const fixedSlowdown = args['cpu-slowdown'] === 'auto' ? null : Number(args['cpu-slowdown']);
if (fixedSlowdown !== null && !(fixedSlowdown >= 1)) throw new Error(`--cpu-slowdown takes auto or a number ≥ 1, not ${args['cpu-slowdown']}`);
const runs = Math.max(1, Number(args.runs) || 1);
const targetDir = process.env.CARGO_TARGET_DIR || join(root, 'target');
const out = args.out || join(targetDir, 'bench', 'audit');
const binDir =
  process.env.TIFFIN_BIN_DIR || (existsSync(join(targetDir, 'release', 'tiffin')) ? join(targetDir, 'release') : join(targetDir, 'debug'));
const port = Number(process.env.AUDIT_PORT || 18180);
const grpcBase = Number(process.env.AUDIT_GRPC_BASE_PORT || 21151);
const baseURL = `http://127.0.0.1:${port}`;

/**
 * The audited pages, each with its path and the cookies its browser starts with: the visitor it
 * is audited as (new, located in Koramangala, or a located guest with a cart).
 */
async function pages() {
  const located = [koramangalaCookie(baseURL)];
  const api = await playwrightRequest.newContext({ baseURL });
  try {
    const { restaurant, dish } = await restaurantWithPlainDish(api);
    // The address a listing card links to.
    const menuPath = restaurant.slug ? `/restaurants/${restaurant.slug}-${restaurant.id}` : `/menu/${restaurant.id}`;
    // A guest in Koramangala with the dish in the cart: the session cookie carries the cart.
    const { name, value } = located[0];
    const location = { name, value, domain: '127.0.0.1', path: '/', expires: -1, httpOnly: false, secure: false, sameSite: 'Lax' };
    const guest = await playwrightRequest.newContext({ baseURL, storageState: { cookies: [location], origins: [] } });
    const { csrfToken } = await data(await guest.get('/api/cart'));
    await fillCart(guest, { restaurant, dish, csrf: csrfToken });
    const session = (await guest.storageState()).cookies.filter(({ name }) => name !== 'userLocation').map(({ name, value }) => ({ name, value, url: baseURL }));
    await guest.dispose();
    return [
      { name: 'landing', path: '/', cookies: [] },
      { name: 'listing', path: '/restaurants', cookies: located },
      { name: 'menu', path: menuPath, cookies: located },
      { name: 'cart', path: '/cart', cookies: [...located, ...session] },
    ];
  } finally {
    await api.dispose();
  }
}

/**
 * The CPU slowdown that makes a host of `benchmarkIndex` behave like the mid-tier phone of
 * Lighthouse's mobile preset: the published calibration (Lighthouse's throttling guide and its
 * slowdown calculator), 2x at an index of 800, 3x at 1,300, then one more for every 233; 1x at
 * 150. Below 150 the host is slower than the phone and nothing is slowed.
 */
function slowdownFor(benchmarkIndex) {
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  if (benchmarkIndex >= 150) return 1 + (benchmarkIndex - 150) / 650;
  return 1;
}

/** Lighthouse's benchmark index of this host now, the median of three, measured in `browser`. */
async function benchmarkIndex(browser) {
  const page = await browser.newPage();
  try {
    const values = [];
    for (let i = 0; i < 3; i += 1) values.push(await page.evaluate(pageFunctions.computeBenchmarkIndex));
    return values.sort((a, b) => a - b)[1];
  } finally {
    await page.close();
  }
}

/** One Lighthouse run of `path` in a fresh browser that starts with `cookies`. */
async function audit(path, cookies) {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    defaultViewport: null,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    if (cookies.length > 0) await browser.setCookie(...cookies.map((cookie) => ({ ...cookie, domain: '127.0.0.1', path: '/' })));
    const hostIndex = await benchmarkIndex(browser);
    const cpuSlowdown = Number((fixedSlowdown ?? slowdownFor(hostIndex)).toFixed(2));
    const page = await browser.newPage();
    const result = await lighthouse(
      `${baseURL}${path}`,
      { logLevel: 'error', output: ['html', 'json'], onlyCategories: ['performance', 'accessibility'], throttling: { cpuSlowdownMultiplier: cpuSlowdown } },
      undefined,
      page,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
    return { ...result, hostIndex, cpuSlowdown };
  } finally {
    await browser.close();
  }
}

/** The numbers the storefront is held to, and what to look at when one misses. */
function summarise(name, path, { lhr, hostIndex, cpuSlowdown }) {
  const score = (category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  const metric = (id) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const failing = Object.values(lhr.categories.accessibility?.auditRefs ?? [])
    .map((ref) => lhr.audits[ref.id])
    .filter((a) => a && a.score !== null && a.score < 1 && a.scoreDisplayMode !== 'informative')
    .map((a) => a.id);
  // An element Lighthouse can no longer find has left the page: on a page with a first paint,
  // the picture the page replaced.
  const gone = 'an element no longer on the page';
  const lcpElement = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.selector ?? gone;
  const shifts = (lhr.audits['layout-shifts']?.details?.items ?? []).map((item) => `${item.node?.selector ?? gone} (${(item.score ?? 0).toFixed(3)})`);
  return {
    page: name,
    path,
    performance: score('performance'),
    accessibility: score('accessibility'),
    lcpMs: Math.round(metric('largest-contentful-paint')),
    cls: Number(metric('cumulative-layout-shift').toFixed(3)),
    tbtMs: Math.round(metric('total-blocking-time')),
    lcpElement,
    layoutShifts: shifts,
    accessibilityFailures: failing,
    runtimeError: lhr.runtimeError?.message ?? null,
    benchmarkIndex: Math.round(hostIndex),
    cpuSlowdown,
  };
}

const meets = (row) => ({
  performance: row.performance >= GOALS.performance,
  accessibility: row.accessibility >= GOALS.accessibility,
  lcpMs: row.lcpMs <= GOALS.lcpMs,
  cls: row.cls <= GOALS.cls,
});

function markdown(rows, environment) {
  const mark = (ok, text) => (ok ? text : `**${text}** ✗`);
  const lines = [
    `Lighthouse ${environment.lighthouseVersion} (mobile, simulated throttling), ${environment.chromium}, ${environment.binaries} binaries, CPU slowdown ${fixedSlowdown === null ? 'calibrated to the host before each run' : `fixed at ${fixedSlowdown}x`}, median of ${runs} run(s)`,
    '',
    `| page | path | performance | accessibility | LCP | CLS | TBT | host index, slowdown |`,
    `|---|---|---|---|---|---|---|---|`,
    ...rows.map((row) => {
      const ok = meets(row);
      return `| ${row.page} | \`${row.path}\` | ${mark(ok.performance, row.performance)} | ${mark(ok.accessibility, row.accessibility)} | ${mark(ok.lcpMs, `${(row.lcpMs / 1000).toFixed(2)} s`)} | ${mark(ok.cls, row.cls.toFixed(3))} | ${row.tbtMs} ms | ${row.benchmarkIndex}, ${row.cpuSlowdown}x |`;
    }),
    `| goal | | ≥ ${GOALS.performance} | ≥ ${GOALS.accessibility} | ≤ ${GOALS.lcpMs / 1000} s | ≤ ${GOALS.cls} | | |`,
  ];
  const notes = rows.flatMap((row) => [
    ...(row.runtimeError ? [`- ${row.page}: Lighthouse error: ${row.runtimeError}`] : []),
    `- ${row.page}: LCP element: ${row.lcpElement}`,
    ...(row.layoutShifts.length ? [`- ${row.page}: layout shifts: ${row.layoutShifts.join(', ')}`] : []),
    ...(row.accessibilityFailures.length ? [`- ${row.page}: accessibility failures: ${row.accessibilityFailures.join(', ')}`] : []),
  ]);
  return [...lines, '', ...notes, ''].join('\n');
}

async function main() {
  mkdirSync(out, { recursive: true });
  console.log(`== page audit: starting the storefront from ${binDir} on ${baseURL}`);
  const storefront = await startStorefront({
    port,
    grpcBase,
    adminPort: grpcBase + 8,
    binDir,
    logPath: join(out, 'storefront.log'),
  });
  try {
    const rows = [];
    let environment = null;
    for (const { name, path, cookies } of await pages()) {
      const results = [];
      for (let run = 1; run <= runs; run += 1) {
        process.stdout.write(`   ${name} (${path}) run ${run}/${runs}…\n`);
        results.push(await audit(path, cookies));
      }
      results.sort((a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0));
      const median = results[Math.floor((results.length - 1) / 2)];
      const [html, json] = median.report;
      writeFileSync(join(out, `${name}.report.html`), html);
      writeFileSync(join(out, `${name}.report.json`), json);
      rows.push(summarise(name, path, median));
      environment ??= {
        lighthouseVersion: median.lhr.lighthouseVersion,
        chromium: median.lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium',
        binaries: binDir.endsWith('release') ? 'release' : 'debug',
        cpuSlowdown: fixedSlowdown ?? 'calibrated',
      };
    }
    const table = markdown(rows, environment);
    writeFileSync(join(out, 'summary.json'), `${JSON.stringify({ goals: GOALS, runs, environment, pages: rows }, null, 2)}\n`);
    writeFileSync(join(out, 'summary.md'), table);
    console.log(`\n${table}`);
    console.log(`(reports: ${out})`);
  } finally {
    await storefront.stop();
  }
}

await main();
