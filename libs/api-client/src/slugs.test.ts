import { describe, expect, it } from 'vitest';
import { cuisineNearMeHref, cuisineSlug } from './slugs';

describe('cuisine URL words (same examples as discovery cuisine_slug)', () => {
  it('cuts a name into one URL word', () => {
    expect(cuisineSlug('Rolls & Wraps')).toBe('rolls-wraps');
    expect(cuisineSlug('  North Indian ')).toBe('north-indian');
    expect(cuisineSlug("Haldiram's Specials")).toBe('haldirams-specials');
    expect(cuisineSlug('&')).toBe('');
    expect(cuisineSlug('Café & Crêpes')).toBe('cafe-crepes');
  });

  it('is stable: a URL word is its own URL word', () => {
    expect(cuisineSlug(cuisineSlug('Rolls & Wraps'))).toBe('rolls-wraps');
  });

  it('builds the cuisine page path', () => {
    expect(cuisineNearMeHref('Rolls & Wraps')).toBe('/rolls-wraps-restaurants-near-me');
  });
});
