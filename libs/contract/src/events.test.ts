import { describe, expect, it, vi } from 'vitest';
import { emit, on } from './events';

describe('window events', () => {
  it('delivers the typed detail of cart:updated to a listener', () => {
    const seen: number[] = [];
    const off = on('cart:updated', (detail) => seen.push(detail.count));

    emit('cart:updated', { count: 3 });
    off();
    emit('cart:updated', { count: 4 });

    expect(seen).toEqual([3]);
  });

  it('dispatches on window under the namespaced name, so non-React code can listen too', () => {
    const listener = vi.fn();
    window.addEventListener('auth:open', listener);

    emit('auth:open', { mode: 'login' });

    expect(listener).toHaveBeenCalledTimes(1);
    expect((listener.mock.calls[0]![0] as CustomEvent).detail).toEqual({ mode: 'login' });
    window.removeEventListener('auth:open', listener);
  });

  it('reports whether a listener claimed a cancelable event', () => {
    const off = on('route:navigate', (_detail, event) => event.preventDefault());
    expect(emit('route:navigate', { to: '/cart', replace: false }, { cancelable: true })).toBe(false);
    off();
    expect(emit('route:navigate', { to: '/cart', replace: false }, { cancelable: true })).toBe(true);
  });
});
