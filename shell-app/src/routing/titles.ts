/** Document titles per route id. The shell sets them on every navigation. */
import type { MatchedRoute } from '@tiffin/contract';
import { INFO_PAGE_TITLES, isInfoPageId } from '../pages/info/titles';
import { isMomentSlug, MOMENT_TITLES } from '../pages/moments/slugs';

const BRAND = 'Tiffin';

function titleCase(slug: string): string {
  return slug
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

const TITLES: Record<string, (params: Record<string, string>) => string> = {
  home: () => 'Order food online from restaurants near you',
  'new-home': () => 'Order food online from restaurants near you',
  auth: () => 'Login',
  redirect: () => 'Redirecting',
  listing: () => 'Restaurants near you',
  'restaurants-near-me': () => 'Restaurants near me',
  'best-restaurants-near-me': () => 'Best restaurants near me',
  'cuisine-near-me': (p) => `${titleCase(p.cuisine ?? '')} restaurants near me`,
  menu: (p) => `${titleCase(p.slug ?? 'Restaurant')} menu`,
  'menu-by-id': () => 'Restaurant menu',
  'menu-index': () => 'Restaurant menu',
  meal: () => 'Meal',
  search: () => 'Search for restaurants and food',
  collection: () => 'Collection',
  'offers-near-me': () => 'Offers near you',
  offers: () => 'Offers',
  eatlist: () => 'Eatlist',
  cart: () => 'Cart',
  checkout: () => 'Secure Checkout',
  'order-confirmation': () => 'Order Placed',
  'membership-checkout': () => 'Tiffin One - Secure Checkout',
  payments: () => 'Payment',
  'track-order': () => 'Live Order Tracking',
  account: () => 'My Account',
  support: () => 'Help',
  desk: () => 'Support desk',
  membership: () => 'Tiffin One',
  'membership-confirm': () => 'Tiffin One',
  'info-page': (p) => (isInfoPageId(p.page) ? INFO_PAGE_TITLES[p.page] : titleCase(p.page ?? '')),
  corporate: () => 'Tiffin for Corporates',
  app: () => 'Get the Tiffin app',
  webview: () => 'Order food on Tiffin',
  moments: (p) => (isMomentSlug(p.slug) ? `${MOMENT_TITLES[p.slug]} - Tiffin Moments` : 'Tiffin Moments'),
  'order-for-others': () => 'Order for others',
  nyequiz: () => 'New Year’s Eve food quiz',
  'city-restaurant': (p) => `${titleCase(p.slug ?? 'Restaurant')} menu, ${titleCase(p.city ?? '')}`,
  'city-best-restaurants': (p) => `Best restaurants in ${titleCase(p.city ?? '')}`,
  area: (p) => `Restaurants in ${titleCase(p.area ?? '')}, ${titleCase(p.city ?? '')}`,
  'area-collection': (p) => `${titleCase(p.collection ?? '')} in ${titleCase(p.area ?? '')}, ${titleCase(p.city ?? '')}`,
  'city-collection': (p) => `${titleCase(p.collection ?? '')} in ${titleCase(p.city ?? '')}`,
  city: (p) => `Food delivery in ${titleCase(p.city ?? '')}`,
};

const NOT_FOUND_TITLE = 'Page not found';

export function hasTitle(routeId: string): boolean {
  return routeId in TITLES;
}

/** `null` stands for the not-found page. */
export function documentTitle(match: MatchedRoute | null): string {
  if (!match) return `${NOT_FOUND_TITLE} | ${BRAND}`;
  const title = TITLES[match.id]?.(match.params);
  return title ? `${title} | ${BRAND}` : BRAND;
}
