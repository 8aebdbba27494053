import { describe, expect, it } from 'vitest';
import { safeRedirectTarget } from './redirect';

const origin = 'https://tiffin.example';

describe('safeRedirectTarget', () => {
  it('accepts same-origin paths and http(s) URLs', () => {
    expect(safeRedirectTarget('/checkout', origin)).toBe('/checkout');
    expect(safeRedirectTarget('https://tiffin.example/cart?x=1', origin)).toBe('/cart?x=1');
    expect(safeRedirectTarget('https://partner.example/', origin)).toBe('https://partner.example/');
  });

  it('sends everything else home', () => {
    for (const bad of [null, '', 'javascript:alert(1)', '//evil.example/', '/\\evil.example', 'not a url']) {
      expect(safeRedirectTarget(bad, origin)).toBe('/');
    }
  });
});
