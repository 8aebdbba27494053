/**
 * Footer content and the pure rules behind it.
 */
import { cuisineNearMeHref } from '@tiffin/api-client';
import type { City, PageType } from '@tiffin/contract';

interface FooterLink {
  name: string;
  href: string;
  /** Spec: footer links open in a new tab except help and support. */
  newTab: boolean;
}

interface FooterLinkGroup {
  title: string;
  links: FooterLink[];
}

export const FOOTER_GROUPS: FooterLinkGroup[] = [
  {
    title: 'Company',
    links: [
      { name: 'About us', href: '/about', newTab: true },
      { name: 'Team', href: '/team', newTab: true },
      { name: 'Careers', href: '/careers', newTab: true },
      { name: 'Bug Bounty', href: '/bug-bounty', newTab: true },
      { name: 'Tiffin One', href: '/tiffin-one', newTab: true },
      { name: 'Tiffin Corporate', href: '/corporate', newTab: true },
    ],
  },
  {
    title: 'Contact us',
    links: [{ name: 'Help & Support', href: '/support', newTab: false }],
  },
  {
    title: 'Legal',
    links: [
      { name: 'Terms & Conditions', href: '/terms-and-conditions', newTab: true },
      { name: 'Refund & Cancellation', href: '/refund-policy', newTab: true },
      { name: 'Privacy Policy', href: '/privacy-policy', newTab: true },
      { name: 'Cookie Policy', href: '/cookie-policy', newTab: true },
      { name: 'Offer Terms', href: '/offer-terms', newTab: true },
      { name: 'Phishing & Fraud', href: '/beware-of-phishing-and-fraud', newTab: true },
      { name: 'Corporate – Tiffin Money Terms', href: '/tnc-corporate-sm', newTab: true },
      { name: 'Corporate – Discount Terms', href: '/tnc-corporate-discount', newTab: true },
    ],
  },
];

export const APP_DOWNLOAD_TEXT = 'For better experience, download the Tiffin app now';
export const POPULAR_CITIES_TITLE = 'Popular cities in India';

/** The popular cities, when enabled. */
const POPULAR_CITY_SLUGS = ['ahmedabad', 'bangalore', 'chennai', 'delhi', 'gurgaon', 'hyderabad', 'kolkata', 'mumbai', 'pune'];

/** 4 columns on desktop, 2 on mobile. */
export const CITY_COLUMNS = { desktop: 4, mobile: 2 } as const;

const HIDDEN_SLUG = /test|do-not-use|closed/i;

/** Cities that may be listed: enabled, and no test, do-not-use or closed slugs. */
export function listableCities(cities: readonly City[]): City[] {
  return cities.filter((city) => city.enabled && !HIDDEN_SLUG.test(city.slug));
}

export function popularCities(cities: readonly City[]): City[] {
  return listableCities(cities).filter((city) => POPULAR_CITY_SLUGS.includes(city.slug));
}

/** Splits items into `count` columns, filling each column top to bottom (column-major). */
export function splitIntoColumns<T>(items: readonly T[], count: number): T[][] {
  const columns: T[][] = Array.from({ length: Math.max(1, count) }, () => []);
  const perColumn = Math.ceil(items.length / columns.length);
  items.forEach((item, index) => {
    columns[Math.floor(index / Math.max(1, perColumn))]!.push(item);
  });
  return columns;
}

/** Links for a city (spec: /city/{city} and /city/{city}/best-restaurants). */
export function cityHref(slug: string): string {
  return `/city/${encodeURIComponent(slug)}`;
}

/** The footer is hidden while a collection is open. */
export function footerVisible(routeId: string | null): boolean {
  return routeId !== 'collection';
}

// ── SEO links: best restaurants per city and cuisine pages ──

/** `/city/{city}/best-restaurants`. */
function bestRestaurantsHref(slug: string): string {
  return `/city/${encodeURIComponent(slug)}/best-restaurants`;
}

/** Cuisines with a page (`/{cuisine}-restaurants-near-me`), as discovery names them. */
const FOOTER_CUISINES = [
  'North Indian', 'Biryani', 'South Indian', 'Chinese', 'Pizzas', 'Burgers', 'Cafe', 'Rolls & Wraps', 'Desserts', 'Sweets', 'Momos',
  'Street Food', 'Mughlai', 'Healthy Food', 'Continental', 'Andhra', 'Chettinad', 'Kerala', 'Bengali', 'Gujarati',
  'Maharashtrian', 'Beverages', 'Chaat',
];

/** `Rolls & Wraps` → `/rolls-wraps-restaurants-near-me` (discovery's URL word for the cuisine). */
export function cuisineHref(cuisine: string): string {
  return cuisineNearMeHref(cuisine);
}

/** The SEO link lists: best restaurants in each popular city, then the cuisine pages. */
export function seoLinks(cities: readonly City[]): { best: Array<{ name: string; href: string }>; cuisines: Array<{ name: string; href: string }> } {
  return {
    best: popularCities(cities).map((c) => ({ name: `Best restaurants in ${c.name}`, href: bestRestaurantsHref(c.slug) })),
    cuisines: FOOTER_CUISINES.map((c) => ({ name: `${c} restaurants near me`, href: cuisineHref(c) })),
  };
}

// ── Compact footer ──

type FooterVariant = 'full' | 'compact';

/**
 * Page types whose footer is the compact one: pages about one task (a menu, the cart, paying,
 * tracking an order, the account area, help, the agents' desk, search results, the entry page in
 * a partner's web view), where a wall of SEO city and cuisine links is noise under the content. Every other page (home, listing, city
 * and area pages, collections, offers, static pages, not found) keeps the full footer.
 */
export const COMPACT_FOOTER_PAGE_TYPES: readonly PageType[] = [
  'MENU',
  'SEARCH',
  'CART',
  'CHECKOUT',
  'WEB_PAYMENTS',
  'TRACKING',
  'ACCOUNT',
  'SUPPORT',
  'DESK',
  'WEBVIEW',
  'MEMBERSHIP_CHECKOUT',
];

export function footerVariant(pageType: PageType): FooterVariant {
  return COMPACT_FOOTER_PAGE_TYPES.includes(pageType) ? 'compact' : 'full';
}

/** The compact footer's cities when fewer than 6 are supplied, in this order. */
const COMPACT_DEFAULT_CITY_SLUGS = ['mumbai', 'delhi', 'gurgaon', 'bangalore', 'chennai', 'kolkata'];
/** Footer default cities. */
const COMPACT_CITY_COUNT = 6;
export const AVAILABLE_IN_TITLE = 'Available in:';
export const OTHER_CITIES_TITLE = 'Other cities that we deliver:';

/** `gurgaon` → `Gurgaon`: a default city's name before the city list has arrived. */
function nameFromSlug(slug: string): string {
  return slug.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => `${dash ? ' ' : ''}${c.toUpperCase()}`);
}

/**
 * The compact footer's cities. `shown`: the first 6 listable supplied cities when at least 6 are
 * supplied, else the 6 defaults (those of them listable once the city list is known; all 6 while
 * it is not). `others`: every other listable city, for 'Other cities that we deliver:'.
 */
export function compactFooterCities(all: readonly City[] | null, supplied: readonly City[] = []): { shown: City[]; others: City[] } {
  const listable = all ? listableCities(all) : [];
  const fromSupplied = listableCities(supplied);
  let shown: City[];
  if (fromSupplied.length >= COMPACT_CITY_COUNT) {
    shown = fromSupplied.slice(0, COMPACT_CITY_COUNT);
  } else if (all) {
    shown = COMPACT_DEFAULT_CITY_SLUGS.flatMap((slug) => listable.filter((c) => c.slug === slug));
  } else {
    shown = COMPACT_DEFAULT_CITY_SLUGS.map((slug) => ({ slug, name: nameFromSlug(slug), enabled: true }));
  }
  const shownSlugs = new Set(shown.map((c) => c.slug));
  return { shown, others: listable.filter((c) => !shownSlugs.has(c.slug)) };
}

/** The cities button's text: how many more cities there are. */
export function otherCitiesLabel(count: number): string {
  return count === 1 ? '1 city' : `${count} cities`;
}

/** The compact footer's links: help and support, then the legal essentials (from FOOTER_GROUPS). */
const COMPACT_LINK_HREFS = ['/support', '/about', '/terms-and-conditions', '/privacy-policy'];

export function compactLinks(): FooterLink[] {
  const all = FOOTER_GROUPS.flatMap((g) => g.links);
  return COMPACT_LINK_HREFS.flatMap((href) => all.filter((l) => l.href === href));
}
