import type { MatchedRoute } from '@tiffin/contract';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import routeTable from '../routes.json';
import { resolveRoute, ROUTES } from '../routing/match';
import { documentTitle } from '../routing/titles';
import { infoPageContent } from './info/content';
import { INFO_PAGE_IDS, type InfoPageId } from './info/titles';
import { ShellPage } from './ShellPages';

afterEach(cleanup);

const OLD_PLACEHOLDER = 'This page is not published on the storefront yet';

/** What the router hands the shell for `/<id>`, so the page is tested behind its real route. */
function routeFor(id: string): MatchedRoute {
  const resolution = resolveRoute(`/${id}`, ROUTES, new Set());
  if (resolution.kind !== 'match') throw new Error(`/${id} is not a route`);
  return resolution.match;
}

async function open(id: InfoPageId) {
  render(<ShellPage route={routeFor(id)} search="" />);
  // The page's text is loaded on demand: wait for it.
  return screen.findByRole('heading', { level: 1 });
}

describe('the company and legal pages', () => {
  it('are exactly the pages the info-page route serves', () => {
    const served = INFO_PAGE_IDS.filter((id) => routeFor(id).id === 'info-page');
    expect(served).toEqual(INFO_PAGE_IDS);
    const pattern = routeTable.find((route) => route.id === 'info-page')!.pattern;
    const listed = /\(\?<page>([^)]+)\)/.exec(pattern)![1]!.split('|');
    expect([...listed].sort()).toEqual([...INFO_PAGE_IDS].sort());
  });

  it.each(INFO_PAGE_IDS)('/%s has its own title, a date, sections and help at /support', async (id) => {
    const heading = await open(id);

    const page = infoPageContent(id);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(heading.textContent).toBe(page.title);
    // The h1 is what the browser tab says.
    expect(`${page.title} | Tiffin`).toBe(documentTitle(routeFor(id)));

    const article = heading.closest('article')!;
    expect(article.textContent).not.toContain(OLD_PLACEHOLDER);
    expect(article.textContent).toMatch(/Last updated \d{1,2} [A-Z][a-z]+ 20\d\d/);
    expect(article.querySelector('time')?.getAttribute('dateTime')).toBe(page.updated);

    const sections = within(article).getAllByRole('region');
    expect(sections.length).toBeGreaterThan(0);
    expect(sections.map((s) => within(s).getByRole('heading', { level: 2 }).textContent)).toEqual(page.sections.map((s) => s.heading));

    const help = within(article).getAllByRole('link', { name: 'Help & Support' });
    expect(help.length).toBeGreaterThan(0);
    for (const link of help) expect(link.getAttribute('href')).toBe('/support');
    // Every link stays on this site, and no link text leaks its markup.
    for (const link of within(article).getAllByRole('link')) expect(link.getAttribute('href')).toMatch(/^\/[a-z]/);
    expect(article.textContent).not.toMatch(/\]\(|\[[A-Z]|`/);
  });

  it('the privacy policy names what the account keeps and how cards are kept', async () => {
    await open('privacy-policy');
    const text = screen.getByRole('article').textContent ?? '';
    for (const kept of ['mobile number', 'saved addresses', 'favourite restaurants', 'SMS preferences', 'one-way hash', 'last 4 digits']) {
      expect(text).toContain(kept);
    }
    expect(screen.getByRole('link', { name: 'Cookie Policy' }).getAttribute('href')).toBe('/cookie-policy');
  });

  it('the cookie policy names every cookie the storefront sets', async () => {
    await open('cookie-policy');
    const text = screen.getByRole('article').textContent ?? '';
    for (const cookie of ['__Host-tfn_sid', 'tfn_sid', 'tfn_did', 'userLocation', 'deliveryAddressId', 'tfn_default_address_applied', 'tfn_default_address_declined']) {
      expect(text).toContain(cookie);
    }
    expect(text).toContain('no third-party tracking cookies');
  });

  it('the refund policy gives the cancellation rules by status', async () => {
    await open('refund-policy');
    const lists = within(screen.getByRole('region', { name: 'Cancelling an order' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(lists[0]).toMatch(/^Order Received.*free/);
    expect(lists[1]).toContain('half of the order total');
    expect(lists[2]).toContain('can no longer be cancelled');
    expect(screen.getByRole('region', { name: 'Cash on delivery' }).textContent).toContain('added to your next order');
  });

  it('the phishing page says what Tiffin never asks for', async () => {
    await open('beware-of-phishing-and-fraud');
    const never = within(screen.getByRole('region', { name: 'Tiffin will never ask you for' })).getAllByRole('listitem').map((li) => li.textContent ?? '');
    expect(never.some((item) => item.includes('OTP'))).toBe(true);
    expect(never.some((item) => item.includes('card number'))).toBe(true);
    expect(never.some((item) => item.includes('UPI PIN'))).toBe(true);
  });

  it('turns only paths on this site into links, and backticked names into code', async () => {
    const { InlineText } = await import('./info/InfoPage');
    render(<p data-testid="text"><InlineText text="See [terms](/terms-and-conditions), not [elsewhere](//evil.example) or [that](https://evil.example)." /></p>);
    const text = screen.getByTestId('text');
    expect(within(text).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual(['/terms-and-conditions']);
    expect(text.textContent).toBe('See terms, not elsewhere or that.');

    render(<p data-testid="names"><InlineText text="The `tfn_did` cookie." /></p>);
    expect(screen.getByTestId('names').querySelector('code')?.textContent).toBe('tfn_did');
    expect(screen.getByTestId('names').textContent).toBe('The tfn_did cookie.');
  });
});

describe('the other shell pages', () => {
  it('the corporate page still links to Help & Support', () => {
    render(<ShellPage route={routeFor('corporate')} search="" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Tiffin for Corporates' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Help & Support' }).getAttribute('href')).toBe('/support');
  });
});
