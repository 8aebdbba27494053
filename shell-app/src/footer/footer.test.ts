import type { City } from '@tiffin/contract';
import { describe, expect, it } from 'vitest';
import { APP_DOWNLOAD_TEXT, FOOTER_GROUPS, listableCities, popularCities, splitIntoColumns } from './footer';

const city = (slug: string, enabled = true): City => ({ slug, name: slug, enabled });

describe('footer cities', () => {
  it('leaves out disabled cities and test, do-not-use and closed slugs', () => {
    const cities = [city('bangalore'), city('mysore', false), city('test-city'), city('pune-do-not-use'), city('closed-goa'), city('mumbai')];
    expect(listableCities(cities).map((c) => c.slug)).toEqual(['bangalore', 'mumbai']);
  });

  it('keeps only the enabled popular cities', () => {
    const cities = [city('bangalore'), city('chennai', false), city('indore'), city('pune')];
    expect(popularCities(cities).map((c) => c.slug)).toEqual(['bangalore', 'pune']);
  });

  it('splits into columns top to bottom', () => {
    expect(splitIntoColumns([1, 2, 3, 4, 5, 6, 7, 8, 9], 4)).toEqual([[1, 2, 3], [4, 5, 6], [7, 8, 9], []]);
    expect(splitIntoColumns([1, 2, 3], 2)).toEqual([[1, 2], [3]]);
    expect(splitIntoColumns([], 4)).toEqual([[], [], [], []]);
  });
});

describe('footer links', () => {
  it('open in a new tab except help and support', () => {
    const links = FOOTER_GROUPS.flatMap((g) => g.links);
    expect(links.filter((l) => !l.newTab).map((l) => l.href)).toEqual(['/support']);
  });

  it('uses the product name in the app download text', () => {
    expect(APP_DOWNLOAD_TEXT).toBe('For better experience, download the Tiffin app now');
  });
});

describe('footer SEO links', () => {
  it('links best restaurants in each listable popular city and every cuisine page', async () => {
    const { seoLinks, cuisineHref } = await import('./footer');
    const links = seoLinks([{ slug: 'bangalore', name: 'Bangalore', enabled: true }, { slug: 'pune', name: 'Pune', enabled: false }, { slug: 'indore', name: 'Indore', enabled: true }]);
    expect(links.best).toEqual([{ name: 'Best restaurants in Bangalore', href: '/city/bangalore/best-restaurants' }]);
    expect(links.cuisines[0]).toEqual({ name: 'North Indian restaurants near me', href: '/north-indian-restaurants-near-me' });
    expect(cuisineHref('Rolls & Wraps')).toBe('/rolls-wraps-restaurants-near-me');
    expect(links.cuisines).toContainEqual({ name: 'Rolls & Wraps restaurants near me', href: '/rolls-wraps-restaurants-near-me' });
  });
});

describe('compact footer', () => {
  it('is the footer of task pages; listing, city and landing pages keep the full one', async () => {
    const { footerVariant, COMPACT_FOOTER_PAGE_TYPES } = await import('./footer');
    for (const pageType of ['MENU', 'CART', 'CHECKOUT', 'WEB_PAYMENTS', 'TRACKING', 'WEBVIEW'] as const) expect(footerVariant(pageType)).toBe('compact');
    for (const pageType of ['HOME', 'LISTING', 'CITY', 'LISTING_AREA', 'CITY_COLLECTION', 'OFFERS', 'STATIC', 'APP', 'NOT_FOUND'] as const) {
      expect(footerVariant(pageType)).toBe('full');
    }
    expect(new Set(COMPACT_FOOTER_PAGE_TYPES).size).toBe(COMPACT_FOOTER_PAGE_TYPES.length);
  });

  it('shows the 6 default cities, listable ones only, and the rest as other cities', async () => {
    const { compactFooterCities } = await import('./footer');
    const all = [city('bangalore'), city('pune'), city('mumbai'), city('delhi', false), city('gurgaon'), city('chennai'), city('kolkata'), city('test-kochi'), city('indore')];
    const { shown, others } = compactFooterCities(all);
    expect(shown.map((c) => c.slug)).toEqual(['mumbai', 'gurgaon', 'bangalore', 'chennai', 'kolkata']);
    expect(others.map((c) => c.slug)).toEqual(['pune', 'indore']);
  });

  it('shows the first 6 supplied cities when at least 6 are supplied', async () => {
    const { compactFooterCities } = await import('./footer');
    const supplied = ['pune', 'hyderabad', 'ahmedabad', 'bangalore', 'chennai', 'mumbai', 'delhi'].map((s) => city(s));
    const all = [...supplied, city('indore')];
    expect(compactFooterCities(all, supplied).shown.map((c) => c.slug)).toEqual(['pune', 'hyderabad', 'ahmedabad', 'bangalore', 'chennai', 'mumbai']);
    expect(compactFooterCities(all, supplied).others.map((c) => c.slug)).toEqual(['delhi', 'indore']);
    // Five usable of six supplied (one disabled) is not enough: the defaults again.
    const fewer = [...supplied.slice(0, 5), city('goa', false)];
    expect(compactFooterCities(all, fewer).shown.map((c) => c.slug)).toEqual(['mumbai', 'delhi', 'bangalore', 'chennai']);
  });

  it('names the defaults from their slugs before the city list arrives', async () => {
    const { compactFooterCities, otherCitiesLabel } = await import('./footer');
    const { shown, others } = compactFooterCities(null);
    expect(shown.map((c) => c.name)).toEqual(['Mumbai', 'Delhi', 'Gurgaon', 'Bangalore', 'Chennai', 'Kolkata']);
    expect(others).toEqual([]);
    expect([otherCitiesLabel(1), otherCitiesLabel(42)]).toEqual(['1 city', '42 cities']);
  });

  it('links help and support in the same tab and the rest in a new one', async () => {
    const { compactLinks } = await import('./footer');
    const links = compactLinks();
    expect(links.map((l) => l.href)).toEqual(['/support', '/about', '/terms-and-conditions', '/privacy-policy']);
    expect(links.filter((l) => !l.newTab).map((l) => l.name)).toEqual(['Help & Support']);
  });
});
