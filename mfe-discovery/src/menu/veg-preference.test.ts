import { afterEach, describe, expect, it } from 'vitest';
import { readVegOnly, shareVegOnly, VEG_ONLY_KEY, writeVegOnly } from './veg-preference';

afterEach(() => {
  window.localStorage.clear();
  document.cookie = 'tfn_veg_only=; Path=/; Max-Age=0';
});

describe('veg-only preference', () => {
  it('is remembered in local storage under tfn_dweb_vegOnly', () => {
    expect(VEG_ONLY_KEY).toBe('tfn_dweb_vegOnly');
    expect(readVegOnly()).toBe(false);

    writeVegOnly(true);
    expect(window.localStorage.getItem('tfn_dweb_vegOnly')).toBe('true');
    expect(readVegOnly()).toBe(true);

    writeVegOnly(false);
    expect(readVegOnly()).toBe(false);
  });

  it('is shared with the edge in a cookie only while it is on', () => {
    shareVegOnly(true);
    expect(document.cookie).toContain('tfn_veg_only=1');
    shareVegOnly(true);
    expect(document.cookie.match(/tfn_veg_only=1/g)).toHaveLength(1);
    shareVegOnly(false);
    expect(document.cookie).not.toContain('tfn_veg_only');
  });

  it('survives storage that refuses reads and writes', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    } as unknown as Storage;
    expect(readVegOnly(broken)).toBe(false);
    expect(() => writeVegOnly(true, broken)).not.toThrow();
  });
});
