/**
 * Header configuration per page type:
 * a table of defaults plus per-page-type overrides, and one pure function that combines them with
 * the visitor's state. The header component only renders what this returns.
 */
import type { PageType } from '@tiffin/contract';

interface HeaderConfig {
  showUser: boolean;
  showHelp: boolean;
  showOffers: boolean;
  showCorporate: boolean;
  showCart: boolean;
  showSearch: boolean;
  logoIsLink: boolean;
  fullLogo: boolean;
  showTitle: boolean;
  showLocationBar: boolean;
  showCuisines: boolean;
  /** Not sticky: the menu page scrolls its header away. */
  staticMode: boolean;
  setLocationTooltip: boolean;
  /** The header renders nothing at all. */
  nothing: boolean;
  title: string | null;
}

export const HEADER_DEFAULTS: HeaderConfig = {
  showUser: true,
  showHelp: true,
  showOffers: true,
  showCorporate: true,
  showCart: true,
  showSearch: true,
  logoIsLink: true,
  fullLogo: false,
  showTitle: false,
  showLocationBar: false,
  showCuisines: false,
  staticMode: false,
  setLocationTooltip: false,
  nothing: false,
  title: null,
};

const HIDE_COMMERCE = { showSearch: false, showCart: false, showOffers: false, showCorporate: false } as const;

const HEADER_OVERRIDES: Partial<Record<PageType, Partial<HeaderConfig>>> = {
  STATIC: { showSearch: false, showUser: false, showCart: false, showOffers: false, showCorporate: false },
  SUPPORT: { showTitle: true, title: 'Help' },
  // The agents' desk is a place of work: nothing to order from it.
  DESK: { ...HIDE_COMMERCE, showTitle: true, title: 'Support desk' },
  ACCOUNT: { showTitle: true, title: 'My Account' },
  TRACKING: { ...HIDE_COMMERCE, showTitle: true, title: 'Live Order Tracking' },
  CHECKOUT: { ...HIDE_COMMERCE, showTitle: true, title: 'Secure Checkout' },
  APP: { ...HIDE_COMMERCE, showTitle: true, title: 'App' },
  // Inside a partner's app: its own bar is above ours, so only the way to sign in and to help.
  WEBVIEW: { ...HIDE_COMMERCE, showTitle: true, title: 'Order food' },
  MENU: { showLocationBar: true, staticMode: true, setLocationTooltip: true },
  HOME: { nothing: true },
  EATLIST: { nothing: true },
  LISTING_AREA: { fullLogo: true },
  CITY: { fullLogo: true },
  CITY_COLLECTION: { fullLogo: true },
  LISTING: { showLocationBar: true },
  NEW_HOME: { showLocationBar: true },
  SEARCH: { showLocationBar: true },
  COLLECTION: { showLocationBar: true },
  OFFERS: { showLocationBar: true, title: 'Offers' },
  MEMBERSHIP: { showLocationBar: false, logoIsLink: true, showTitle: true, title: 'Tiffin One' },
  MEMBERSHIP_CHECKOUT: {
    showLocationBar: false,
    showSearch: false,
    showCart: false,
    showCorporate: false,
    logoIsLink: false,
    showTitle: true,
    title: 'Tiffin One',
  },
  WEB_PAYMENTS: { ...HIDE_COMMERCE, showTitle: true, title: 'Payment' },
  NOT_FOUND: {},
};

interface VisitorState {
  /** A delivery location with lat and lng is set. */
  hasLocation: boolean;
}

/**
 * Defaults, then the page type's overrides, then the visitor rules: offers and
 * corporate need lat and lng, search needs a location.
 */
export function headerConfig(pageType: PageType, visitor: VisitorState): HeaderConfig {
  const config: HeaderConfig = { ...HEADER_DEFAULTS, ...HEADER_OVERRIDES[pageType] };
  if (!visitor.hasLocation) {
    config.showOffers = false;
    config.showCorporate = false;
    config.showSearch = false;
  }
  return config;
}

/** The location title is truncated to 16 characters. */
const LOCATION_TITLE_MAX = 16;

/** The location bar's text: the place's main text (else area, else address), at most 16 characters. */
export function locationTitle(location: { mainText?: string; area?: string; address?: string } | null): string | null {
  const text = (location?.mainText || location?.area || location?.address || '').trim();
  if (!text) return null;
  const chars = Array.from(text);
  return chars.length <= LOCATION_TITLE_MAX ? text : `${chars.slice(0, LOCATION_TITLE_MAX).join('')}…`;
}

/** The cart badge is styled differently above 9 items. */
export function cartBadgeClass(count: number): string {
  return count > 9 ? 'shell-cart-badge shell-cart-badge--many' : 'shell-cart-badge';
}
