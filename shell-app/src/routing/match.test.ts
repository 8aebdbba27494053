import type { RouteDefinition } from '@tiffin/contract';
import { describe, expect, it } from 'vitest';
import routeTable from '../routes.json';
import { citiesDecidedByEdge, effectivePageType, resolveRoute, ROUTES, type KnownCities } from './match';
import { documentTitle, hasTitle } from './titles';

const cities: KnownCities = new Set(['bangalore', 'mumbai', 'delhi']);

function resolve(path: string, known: KnownCities = cities) {
  const result = resolveRoute(path, ROUTES, known);
  return result.kind === 'match' ? { id: result.match.id, mfe: result.route.mfe, params: result.match.params } : result.kind;
}

describe('routes.json', () => {
  const table = routeTable as RouteDefinition[];

  it('has unique ids and only known owners', () => {
    expect(new Set(table.map((r) => r.id)).size).toBe(table.length);
    for (const route of table) {
      expect(['shell', 'mfe-discovery', 'mfe-cart', 'mfe-checkout', 'mfe-account', 'mfe-desk']).toContain(route.mfe);
    }
  });

  it('uses patterns the edge can compile with the Rust regex crate too', () => {
    for (const { id, pattern } of table) {
      expect(pattern, id).toMatch(/^\^.*\$$/);
      // Rust's regex crate has no lookarounds or backreferences, and `\d` means Unicode digits there.
      expect(pattern, id).not.toMatch(/\(\?[=!]|\(\?<[=!]|\\[1-9]|\\k<|\\d/);
      // Named groups are (?<name>…), which both engines accept (Rust regex ≥ 1.9).
      expect(pattern, id).not.toMatch(/\(\?P</);
    }
  });

  it('gives every route a document title', () => {
    for (const route of table) expect(hasTitle(route.id), route.id).toBe(true);
  });
});

describe('resolveRoute', () => {
  it.each([
    ['/', 'home', 'mfe-discovery'],
    ['/home', 'home', 'mfe-discovery'],
    ['/app', 'app', 'shell'],
    ['/newhome', 'new-home', 'mfe-discovery'],
    ['/restaurants', 'listing', 'mfe-discovery'],
    ['/restaurants/', 'listing', 'mfe-discovery'],
    ['/menu', 'menu-index', 'mfe-discovery'],
    ['/search', 'search', 'mfe-discovery'],
    ['/restaurants-near-me', 'restaurants-near-me', 'mfe-discovery'],
    ['/best-restaurants-near-me', 'best-restaurants-near-me', 'mfe-discovery'],
    ['/offers', 'offers', 'mfe-discovery'],
    ['/offers-near-me', 'offers-near-me', 'mfe-discovery'],
    ['/eatlist', 'eatlist', 'mfe-discovery'],
    ['/cart', 'cart', 'mfe-cart'],
    ['/checkout', 'checkout', 'mfe-checkout'],
    ['/checkout/super', 'membership-checkout', 'mfe-checkout'],
    ['/payments', 'payments', 'mfe-checkout'],
    ['/my-account', 'account', 'mfe-account'],
    ['/support', 'support', 'mfe-account'],
    ['/support/issues/faq/deep/path', 'support', 'mfe-account'],
    ['/desk', 'desk', 'mfe-desk'],
    ['/desk/conversations/c-1', 'desk', 'mfe-desk'],
    ['/tiffin-one', 'membership', 'mfe-account'],
    ['/tiffin-one/confirm', 'membership-confirm', 'mfe-account'],
    ['/auth', 'auth', 'mfe-discovery'],
    ['/redirect', 'redirect', 'shell'],
    ['/corporate', 'corporate', 'shell'],
    ['/terms-and-conditions', 'info-page', 'shell'],
    ['/webview', 'webview', 'shell'],
    ['/moments', 'moments', 'shell'],
    ['/moments/mumbai-vada-pav-in-the-rain', 'moments', 'shell'],
    ['/ofo', 'order-for-others', 'shell'],
    ['/ofo/gifting', 'order-for-others', 'shell'],
    ['/ofo/faq/any/deeper/path', 'order-for-others', 'shell'],
    ['/nyequiz', 'nyequiz', 'shell'],
  ])('%s → %s rendered by %s', (path, id, mfe) => {
    expect(resolve(path)).toMatchObject({ id, mfe });
  });

  it('extracts params for the remote', () => {
    expect(resolve('/restaurants/meghana-biryani-house-koramangala-1042')).toMatchObject({
      id: 'menu',
      params: { slug: 'meghana-biryani-house-koramangala', restaurantId: '1042' },
    });
    expect(resolve('/menu/1042')).toMatchObject({ id: 'menu-by-id', params: { restaurantId: '1042' } });
    expect(resolve('/city/bangalore/meghana-biryani-rest1042')).toMatchObject({
      id: 'city-restaurant',
      params: { city: 'bangalore', slug: 'meghana-biryani', restaurantId: '1042' },
    });
    expect(resolve('/meals/77')).toMatchObject({ id: 'meal', params: { mealId: '77' } });
    expect(resolve('/collections/83951')).toMatchObject({ id: 'collection', params: { collectionId: '83951' } });
    expect(resolve('/track-order/555')).toMatchObject({ id: 'track-order', mfe: 'mfe-checkout', params: { orderId: '555' } });
    expect(resolve('/order-track/555')).toMatchObject({ id: 'track-order', params: { orderId: '555' } });
    expect(resolve('/order-confirmation/1000123')).toMatchObject({ id: 'order-confirmation', mfe: 'mfe-checkout', params: { orderId: '1000123' } });
    expect(resolve('/my-account/orders/123')).toMatchObject({ id: 'account', params: { tab: 'orders', subtab: '123' } });
    expect(resolve('/offers/restaurant')).toMatchObject({ id: 'offers', params: { tab: 'restaurant' } });
    expect(resolve('/eatlist/best-biryani')).toMatchObject({ id: 'eatlist', params: { slug: 'best-biryani' } });
    expect(resolve('/north-indian-restaurants-near-me')).toMatchObject({ id: 'cuisine-near-me', params: { cuisine: 'north-indian' } });
    expect(resolve('/support/issues/faq')).toMatchObject({ params: { rest: '/issues/faq' } });
    expect(resolve('/moments/chennai-dosa-on-a-sunday')).toMatchObject({ params: { slug: 'chennai-dosa-on-a-sunday' } });
    expect(resolve('/ofo/faq/deeper')).toMatchObject({ params: { tab: 'faq' } });
    expect(resolve('/ofo/')).toMatchObject({ id: 'order-for-others' });
  });

  it('routes city, area and collection pages only for known cities', () => {
    expect(resolve('/bangalore')).toMatchObject({ id: 'city', params: { city: 'bangalore' } });
    expect(resolve('/city/mumbai')).toMatchObject({ id: 'city', params: { city: 'mumbai' } });
    expect(resolve('/bangalore/koramangala-restaurants')).toMatchObject({ id: 'area', params: { city: 'bangalore', area: 'koramangala' } });
    expect(resolve('/city/bangalore/koramangala-restaurants')).toMatchObject({ id: 'area', params: { city: 'bangalore', area: 'koramangala' } });
    expect(resolve('/bangalore/biryani-collection')).toMatchObject({ id: 'city-collection', params: { collection: 'biryani' } });
    expect(resolve('/bangalore/area-koramangala/biryani-collection')).toMatchObject({
      id: 'area-collection',
      params: { city: 'bangalore', area: 'koramangala', collection: 'biryani' },
    });
    expect(resolve('/city/delhi/best-restaurants')).toMatchObject({ id: 'city-best-restaurants', params: { city: 'delhi' } });

    expect(resolve('/atlantis')).toBe('not-found');
    expect(resolve('/atlantis/koramangala-restaurants')).toBe('not-found');
  });

  it('waits for the city list before deciding a city route, and trusts the edge without one', () => {
    expect(resolve('/bangalore', 'loading')).toBe('pending');
    expect(resolve('/cart', 'loading')).toMatchObject({ id: 'cart' });
    expect(resolve('/bangalore', 'unavailable')).toMatchObject({ id: 'city' });
  });

  it('does not match unknown paths', () => {
    for (const path of ['/moments/no-such-story', '/moments/mumbai-vada-pav-in-the-rain/more', '/apps', '/nyequiz/2027', '/nope/deeper/still', '/restaurants/no-id', '/menu/abc', '/collections/', '/checkout/other', '/cart/x', '/track-order/']) {
      expect(resolve(path), path).toBe('not-found');
    }
  });

  it('gives home the listing header once a location exists', () => {
    const home = { id: 'home', params: {}, pageType: 'HOME' as const };
    expect(effectivePageType(home, false)).toBe('HOME');
    expect(effectivePageType(home, true)).toBe('LISTING');
  });
});

describe('documentTitle', () => {
  it('names the page and the brand', () => {
    expect(documentTitle({ id: 'checkout', params: {}, pageType: 'CHECKOUT' })).toBe('Secure Checkout | Tiffin');
    expect(documentTitle({ id: 'order-confirmation', params: { orderId: '1' }, pageType: 'CHECKOUT' })).toBe('Order Placed | Tiffin');
    expect(documentTitle({ id: 'city', params: { city: 'bangalore' }, pageType: 'CITY' })).toBe('Food delivery in Bangalore | Tiffin');
    expect(documentTitle(null)).toBe('Page not found | Tiffin');
    expect(documentTitle({ id: 'info-page', params: { page: 'tnc-corporate-sm' }, pageType: 'STATIC' })).toBe('Corporate Tiffin Money Terms | Tiffin');
  });
});

describe('citiesDecidedByEdge', () => {
  function decided(path: string, verdict: { path: string; id: string | null } | undefined) {
    const known = citiesDecidedByEdge(path, verdict, ROUTES);
    return known === undefined ? undefined : resolve(path, known);
  }

  it('takes the edge at its word on the path it answered, before any city list', () => {
    expect(decided('/atlantis', { path: '/atlantis', id: null })).toBe('not-found');
    expect(decided('/Bangalore', { path: '/Bangalore', id: 'city' })).toMatchObject({ id: 'city', params: { city: 'Bangalore' } });
    expect(decided('/city/mumbai/andheri-restaurants', { path: '/city/mumbai/andheri-restaurants', id: 'area' })).toMatchObject({ id: 'area' });
    expect(decided('/restaurants', { path: '/restaurants', id: 'listing' })).toMatchObject({ id: 'listing' });
    expect(decided('/about', { path: '/about', id: 'info-page' })).toMatchObject({ id: 'info-page' });
  });

  it('leaves every other path, and routes this shell does not know, to the city list', () => {
    expect(decided('/bangalore', { path: '/atlantis', id: null })).toBeUndefined();
    expect(decided('/bangalore', undefined)).toBeUndefined();
    expect(decided('/bangalore', { path: '/bangalore', id: 'a-newer-route' })).toBeUndefined();
  });
});
