import { describe, expect, it } from 'vitest';
import { sameOriginTarget } from './redirect';

const origin = 'https://tiffin.example';

describe('sameOriginTarget', () => {
  it('keeps paths on this origin, and URLs on it as their path', () => {
    expect(sameOriginTarget('/checkout', origin)).toBe('/checkout');
    expect(sameOriginTarget('https://tiffin.example/cart?x=1', origin)).toBe('/cart?x=1');
    expect(sameOriginTarget(null, origin)).toBe('/');
    expect(sameOriginTarget('', origin)).toBe('/');
  });

  it('leaves every other target to the edge', () => {
    for (const other of [
      'https://any.site/',
      'https://partner.example/',
      'javascript:alert(1)',
      '//evil.example/',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/caf\u00e9',
      'not a url',
    ]) {
      expect(sameOriginTarget(other, origin)).toBeNull();
    }
  });
});
