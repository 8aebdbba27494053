import { describe, expect, it } from 'vitest';
import { on } from './events';
import { showToast, toastHideDelay, TOAST_DEFAULT_DURATION_MS } from './toast';

describe('showToast', () => {
  it('emits toast:show with the request and a fresh id', () => {
    const shown: Array<{ id: string; text: string }> = [];
    const off = on('toast:show', (detail) => shown.push(detail));

    const first = showToast({ text: 'Item added', status: 'success' });
    const second = showToast({ text: 'Again' });
    off();

    expect(shown.map((t) => t.text)).toEqual(['Item added', 'Again']);
    expect(shown[0]!.id).toBe(first);
    expect(first).not.toBe(second);
  });
});

describe('toastHideDelay', () => {
  it('defaults to 4000 ms', () => {
    expect(TOAST_DEFAULT_DURATION_MS).toBe(4000);
    expect(toastHideDelay(undefined)).toBe(4000);
  });

  it('never hides a toast with a negative duration', () => {
    expect(toastHideDelay(-1)).toBeNull();
  });

  it('uses a given non-negative duration', () => {
    expect(toastHideDelay(1000)).toBe(1000);
    expect(toastHideDelay(0)).toBe(0);
  });
});
