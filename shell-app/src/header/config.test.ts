import { describe, expect, it } from 'vitest';
import { cartBadgeClass, HEADER_DEFAULTS, headerConfig, locationTitle } from './config';

const located = { hasLocation: true };

describe('headerConfig', () => {
  it('starts from the spec defaults', () => {
    expect(HEADER_DEFAULTS).toMatchObject({
      showUser: true,
      showHelp: true,
      showOffers: true,
      showCorporate: true,
      showCart: true,
      logoIsLink: true,
      showSearch: true,
      fullLogo: false,
      showTitle: false,
      showLocationBar: false,
      showCuisines: false,
      staticMode: false,
      setLocationTooltip: false,
      nothing: false,
    });
    expect(headerConfig('CART', located)).toEqual(HEADER_DEFAULTS);
  });

  it('hides commerce entries and shows the title on tracking, checkout, app and payments', () => {
    for (const [pageType, title] of [
      ['TRACKING', 'Live Order Tracking'],
      ['CHECKOUT', 'Secure Checkout'],
      ['APP', 'App'],
      ['WEB_PAYMENTS', 'Payment'],
    ] as const) {
      expect(headerConfig(pageType, located), pageType).toMatchObject({
        showSearch: false,
        showCart: false,
        showOffers: false,
        showCorporate: false,
        showUser: true,
        showTitle: true,
        title,
      });
    }
  });

  it('hides search, user, cart, offers and corporate on static content', () => {
    expect(headerConfig('STATIC', located)).toMatchObject({ showSearch: false, showUser: false, showCart: false, showOffers: false, showCorporate: false, showHelp: true });
  });

  it('shows the page name as title on support and account', () => {
    expect(headerConfig('SUPPORT', located)).toMatchObject({ showTitle: true, title: 'Help' });
    expect(headerConfig('ACCOUNT', located)).toMatchObject({ showTitle: true, title: 'My Account' });
  });

  it("shows the desk's name and hides search, cart and offers there", () => {
    expect(headerConfig('DESK', located)).toMatchObject({ showTitle: true, title: 'Support desk', showSearch: false, showCart: false, showOffers: false, showUser: true });
  });

  it("keeps to signing in and help inside a partner's web view", () => {
    expect(headerConfig('WEBVIEW', located)).toMatchObject({ showTitle: true, title: 'Order food', showSearch: false, showCart: false, showOffers: false, showCorporate: false, showUser: true, showHelp: true });
  });

  it('turns on the location bar, static mode and the tooltip on the menu', () => {
    expect(headerConfig('MENU', located)).toMatchObject({ showLocationBar: true, staticMode: true, setLocationTooltip: true });
  });

  it('shows nothing on home and eatlists', () => {
    expect(headerConfig('HOME', located).nothing).toBe(true);
    expect(headerConfig('EATLIST', located).nothing).toBe(true);
  });

  it('uses the full logo on area, city and city collection pages', () => {
    for (const pageType of ['LISTING_AREA', 'CITY', 'CITY_COLLECTION'] as const) {
      expect(headerConfig(pageType, located).fullLogo, pageType).toBe(true);
    }
  });

  it('shows the location bar on listing, search, collection and offers', () => {
    for (const pageType of ['LISTING', 'SEARCH', 'COLLECTION', 'OFFERS'] as const) {
      expect(headerConfig(pageType, located).showLocationBar, pageType).toBe(true);
    }
  });

  it('configures the membership pages', () => {
    expect(headerConfig('MEMBERSHIP', located)).toMatchObject({ showLocationBar: false, logoIsLink: true, showTitle: true });
    expect(headerConfig('MEMBERSHIP_CHECKOUT', located)).toMatchObject({
      showLocationBar: false,
      showSearch: false,
      showCart: false,
      showCorporate: false,
      logoIsLink: false,
      showTitle: true,
    });
  });

  it('hides offers, corporate and search until a location is set', () => {
    expect(headerConfig('CART', { hasLocation: false })).toMatchObject({ showOffers: false, showCorporate: false, showSearch: false, showCart: true, showHelp: true });
  });
});

describe('locationTitle', () => {
  it('truncates the stored location to 16 characters', () => {
    expect(locationTitle({ mainText: 'Koramangala 5th Block, Bangalore' })).toBe('Koramangala 5th …');
    expect(locationTitle({ mainText: 'Indiranagar' })).toBe('Indiranagar');
    expect(locationTitle({ mainText: '', area: 'HSR Layout' })).toBe('HSR Layout');
    expect(locationTitle(null)).toBeNull();
  });
});

describe('cartBadgeClass', () => {
  it('marks counts above 9', () => {
    expect(cartBadgeClass(9)).toBe('shell-cart-badge');
    expect(cartBadgeClass(10)).toBe('shell-cart-badge shell-cart-badge--many');
  });
});
