import { on, type MatchedRoute } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import routeTable from '../routes.json';
import { resolveRoute, ROUTES } from '../routing/match';
import { documentTitle } from '../routing/titles';
import { infoPageContent } from './info/content';
import { INFO_PAGE_IDS, type InfoPageId } from './info/titles';
import { MOMENT_SLUGS } from './moments/slugs';
import { MOMENTS } from './moments/stories';
import { QUIZ, quizResult, scoreQuiz } from './nyequiz/quiz';
import { OFO_TABS } from './ofo/content';
import { ShellPage } from './ShellPages';

afterEach(cleanup);

const OLD_PLACEHOLDER = 'This page is not published on the storefront yet';

/** What the router hands the shell for `/<id>`, so the page is tested behind its real route. */
function routeFor(id: string): MatchedRoute {
  const resolution = resolveRoute(`/${id}`, ROUTES, new Set());
  if (resolution.kind !== 'match') throw new Error(`/${id} is not a route`);
  return resolution.match;
}

/** The route `path` resolves to (the shell's own router, as the app runs it). */
function routeAt(path: string): MatchedRoute {
  const resolution = resolveRoute(path, ROUTES, new Set());
  if (resolution.kind !== 'match') throw new Error(`${path} is not a route`);
  return resolution.match;
}

/** Renders the page at `path` and waits for its h1 (the pages' text is loaded on demand). */
async function openAt(path: string) {
  render(<ShellPage route={routeAt(path)} search="" />);
  return screen.findByRole('heading', { level: 1 });
}

/** Written text, not a placeholder: no "coming soon", no markup left in it, every link on this site. */
function expectWritten(article: HTMLElement) {
  expect(article.textContent ?? '').not.toMatch(/coming soon|lorem ipsum|\]\(|\[[A-Z]|`/i);
  expect((article.textContent ?? '').length).toBeGreaterThan(600);
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

describe('the app page', () => {
  it('says what the app adds to the web and links to both stores', async () => {
    const heading = await openAt('/app');
    expect(heading.textContent).toBe('Get the Tiffin app');
    expect(documentTitle(routeAt('/app'))).toBe('Get the Tiffin app | Tiffin');
    expect(routeAt('/app').pageType).toBe('APP');
    const article = heading.closest('article')!;
    expectWritten(article);
    const sections = within(article).getAllByRole('region').map((s) => within(s).getByRole('heading', { level: 2 }).textContent);
    expect(sections).toEqual(expect.arrayContaining(['Know when the rider is at your gate', 'Reorder in a tap', 'Pay without typing your card again']));
    const stores = within(within(article).getByRole('list', { name: 'App stores' })).getAllByRole('link');
    expect(stores.map((a) => new URL(a.getAttribute('href')!).host)).toEqual(['play.google.com', 'apps.apple.com']);
    for (const store of stores) expect(store.getAttribute('target')).toBe('_blank');
    // No form asks for a phone number: there is nothing at the edge to send it to.
    expect(article.querySelector('form, input')).toBeNull();
  });
});

describe('the web view entry page', () => {
  it('explains the three steps and starts with the location sidebar', async () => {
    const heading = await openAt('/webview');
    expect(heading.textContent).toBe('Order food on Tiffin');
    expect(routeAt('/webview').pageType).toBe('WEBVIEW');
    const article = heading.closest('article')!;
    expectWritten(article);
    expect(article.querySelectorAll('ol.shell-steps li')).toHaveLength(3);
    const opened = vi.fn();
    const off = on('location:open', opened);
    fireEvent.click(within(article).getByRole('button', { name: 'Choose delivery location' }));
    off();
    expect(opened).toHaveBeenCalledTimes(1);
    expect(within(article).getByRole('link', { name: 'Help & Support' }).getAttribute('href')).toBe('/support');
  });
});

describe('Tiffin Moments', () => {
  it('the route lists exactly the stories', () => {
    const pattern = routeTable.find((route) => route.id === 'moments')!.pattern;
    const listed = /\(\?<slug>([^)]+)\)/.exec(pattern)![1]!.split('|');
    expect([...listed].sort()).toEqual([...MOMENT_SLUGS].sort());
  });

  it('the index links every story', async () => {
    const heading = await openAt('/moments');
    expect(heading.textContent).toBe('Tiffin Moments');
    const article = heading.closest('article')!;
    const links = within(article).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(MOMENT_SLUGS.map((slug) => `/moments/${slug}`));
    expect(MOMENTS.length).toBeGreaterThanOrEqual(4);
  });

  it.each(MOMENT_SLUGS)('/moments/%s is a written story with a way to order the dish', async (slug) => {
    const story = MOMENTS.find((m) => m.slug === slug)!;
    const heading = await openAt(`/moments/${slug}`);
    expect(heading.textContent).toBe(story.title);
    expect(documentTitle(routeAt(`/moments/${slug}`))).toBe(`${story.title} - Tiffin Moments | Tiffin`);
    const article = heading.closest('article')!;
    expectWritten(article);
    expect(within(article).getAllByRole('region').length).toBeGreaterThanOrEqual(3);
    const hrefs = within(article).getAllByRole('link').map((a) => a.getAttribute('href') ?? '');
    expect(hrefs.some((href) => /^\/[a-z-]+-restaurants-near-me$/.test(href))).toBe(true);
    expect(hrefs).toContain('/moments');
    expect(hrefs).not.toContain(`/moments/${slug}`);
  });

  it('an unknown story is the not-found page', () => {
    expect(resolveRoute('/moments/no-such-story', ROUTES, new Set()).kind).toBe('not-found');
    // Reached anyway (a route table out of step with the stories), it is not drawn empty.
    render(<ShellPage route={{ id: 'moments', params: { slug: 'no-such-story' }, pageType: 'STATIC' }} search="" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });
});

describe('order for others', () => {
  it.each(OFO_TABS.map((tab) => tab.id))('/ofo/%s shows its tab, marked current among the three', async (id) => {
    const heading = await openAt(`/ofo/${id}`);
    expect(heading.textContent).toBe('Order for others');
    const article = heading.closest('article')!;
    const tabs = within(within(article).getByRole('navigation', { name: 'Order for others' })).getAllByRole('link');
    expect(tabs.map((a) => a.getAttribute('href'))).toEqual(['/ofo/how-it-works', '/ofo/gifting', '/ofo/faq']);
    expect(tabs.filter((a) => a.getAttribute('aria-current') === 'page').map((a) => a.getAttribute('href'))).toEqual([`/ofo/${id}`]);
    const tab = OFO_TABS.find((t) => t.id === id)!;
    expect(within(article).getAllByRole('region').map((s) => within(s).getByRole('heading', { level: 2 }).textContent)).toEqual(tab.sections.map((s) => s.heading));
  });

  it('says how: another address, a note, and paying yourself', async () => {
    const heading = await openAt('/ofo/how-it-works');
    const article = heading.closest('article')!;
    expectWritten(article);
    const text = article.textContent ?? '';
    for (const said of ['ADD NEW ADDRESS', 'Landmark', 'Any suggestions? We will pass it on…', 'Pay online', 'any refund comes back to you']) expect(text).toContain(said);
  });

  it.each(['/ofo', '/ofo/', '/ofo/no-such-tab', '/ofo/no-such-tab/deeper'])('%s falls back to the first tab', async (path) => {
    const heading = await openAt(path);
    const current = heading.closest('article')!.querySelector('[aria-current="page"]');
    expect(current?.getAttribute('href')).toBe('/ofo/how-it-works');
    expect(screen.getByRole('region', { name: 'Deliver to their address' })).toBeTruthy();
  });
});

describe("the New Year's Eve quiz", () => {
  it('scores right answers only, and says something for every score', () => {
    const right = Object.fromEntries(QUIZ.map((q) => [q.id, q.answer]));
    const wrong = Object.fromEntries(QUIZ.map((q) => [q.id, (q.answer + 1) % q.choices.length]));
    expect(QUIZ.length).toBeGreaterThanOrEqual(5);
    expect(scoreQuiz(right)).toBe(QUIZ.length);
    expect(scoreQuiz(wrong)).toBe(0);
    expect(scoreQuiz({})).toBe(0);
    expect(scoreQuiz({ ...wrong, [QUIZ[0]!.id]: QUIZ[0]!.answer })).toBe(1);
    const titles = new Set(Array.from({ length: QUIZ.length + 1 }, (_, score) => quizResult(score).title));
    expect(titles.size).toBe(4);
  });

  it('is answered in the page, scored, shows why, links to restaurants and plays again', async () => {
    const heading = await openAt('/nyequiz');
    expect(heading.textContent).toBe('New Year’s Eve food quiz');
    const submit = screen.getByRole('button', { name: 'See my score' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    // Every answer right but the first.
    QUIZ.forEach((q, index) => {
      const group = screen.getByRole('group', { name: new RegExp(`^${index + 1}\\. `) });
      const pick = index === 0 ? (q.answer + 1) % q.choices.length : q.answer;
      fireEvent.click(within(group).getByRole('radio', { name: q.choices[pick] }));
    });
    expect(submit.disabled).toBe(false);
    fireEvent.click(submit);

    const result = screen.getByRole('region', { name: new RegExp(`^You scored ${QUIZ.length - 1} of ${QUIZ.length}`) });
    expect(result.textContent).toContain(quizResult(QUIZ.length - 1).title);
    expect(within(result).getByRole('link', { name: 'Order for the countdown' }).getAttribute('href')).toBe('/restaurants');
    expect(screen.getByText(new RegExp(`^The answer is ${QUIZ[0]!.choices[QUIZ[0]!.answer]}\\.`))).toBeTruthy();

    fireEvent.click(within(result).getByRole('button', { name: 'Play again' }));
    expect(screen.queryByRole('region', { name: /^You scored/ })).toBeNull();
    expect(screen.getAllByRole('radio').filter((r) => (r as HTMLInputElement).checked)).toHaveLength(0);
  });
});
