import { describe, expect, it } from 'vitest';
import { on } from './events';
import { isInternalHref, navigate } from './navigation';

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
