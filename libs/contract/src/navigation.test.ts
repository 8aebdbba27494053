import { describe, expect, it } from 'vitest';
import { on } from './events';
import { isInternalHref, navigate, restaurantHref } from './navigation';

describe('navigate', () => {
  it('hands the navigation to the shell when it claims the event', () => {
    const requests: Array<{ to: string; replace: boolean }> = [];
    const off = on('route:navigate', (detail, event) => {
      requests.push(detail);
      event.preventDefault();
    });

    navigate('/checkout', { replace: true });
    off();

    expect(requests).toEqual([{ to: '/checkout', replace: true }]);
  });
});

describe('isInternalHref', () => {
  it('accepts same-origin paths and URLs only', () => {
    expect(isInternalHref('/cart', 'http://localhost')).toBe(true);
    expect(isInternalHref('http://localhost/cart', 'http://localhost')).toBe(true);
    expect(isInternalHref('//evil.example/cart', 'http://localhost')).toBe(false);
    expect(isInternalHref('https://evil.example/', 'http://localhost')).toBe(false);
  });
});

describe('restaurantHref', () => {
  it('builds the menu route from the slug and id', () => {
    expect(restaurantHref({ id: '1042', slug: 'meghana-biryani-house-koramangala' })).toBe('/restaurants/meghana-biryani-house-koramangala-1042');
    expect(restaurantHref({ id: '7', slug: 'Café Día!' })).toBe('/restaurants/caf-d-a--7');
    expect(restaurantHref({ id: '7' })).toBe('/restaurants/restaurant-7');
    expect(restaurantHref({ id: '7', slug: '' })).toBe('/restaurants/restaurant-7');
  });
});
