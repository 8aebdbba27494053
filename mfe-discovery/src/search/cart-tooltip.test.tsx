import { emit } from '@tiffin/contract';
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CART_TOOLTIP_DELAY_MS, CART_TOOLTIP_HIDE_MS, cartCountRose, useCartTooltip } from './cart-tooltip';

describe('cart tooltip rule', () => {
  it('shows only when the count rises from a known count', () => {
    expect(cartCountRose(null, 3)).toBe(false);
    expect(cartCountRose(1, 2)).toBe(true);
    expect(cartCountRose(2, 2)).toBe(false);
    expect(cartCountRose(2, 1)).toBe(false);
  });
});

describe('useCartTooltip', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('shows 1 s after the count rises and hides 4 s later', () => {
    const { result } = renderHook(() => useCartTooltip(0));

    act(() => emit('cart:updated', { count: 1 }));
    expect(result.current.visible).toBe(false);
    act(() => void vi.advanceTimersByTime(CART_TOOLTIP_DELAY_MS));
    expect(result.current.visible).toBe(true);
    act(() => void vi.advanceTimersByTime(CART_TOOLTIP_HIDE_MS));
    expect(result.current.visible).toBe(false);
  });

  it('stays hidden when the first count it hears is the cart it did not know, or a fall', () => {
    const { result } = renderHook(() => useCartTooltip(null));

    act(() => emit('cart:updated', { count: 4 }));
    act(() => emit('cart:updated', { count: 3 }));
    act(() => void vi.advanceTimersByTime(CART_TOOLTIP_DELAY_MS * 2));

    expect(result.current.visible).toBe(false);
  });
});
