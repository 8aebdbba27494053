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

describe('footer SEO links (issue 3)', () => {
  it('links best restaurants in each listable popular city and every cuisine page', async () => {
    const { seoLinks, cuisineHref } = await import('./footer');
    const links = seoLinks([{ slug: 'bangalore', name: 'Bangalore', enabled: true }, { slug: 'pune', name: 'Pune', enabled: false }, { slug: 'indore', name: 'Indore', enabled: true }]);
    expect(links.best).toEqual([{ name: 'Best restaurants in Bangalore', href: '/city/bangalore/best-restaurants' }]);
    expect(links.cuisines[0]).toEqual({ name: 'North Indian restaurants near me', href: '/north-indian-restaurants-near-me' });
    expect(cuisineHref('Rolls & Wraps')).toBe('/rolls-wraps-restaurants-near-me');
  });
});
