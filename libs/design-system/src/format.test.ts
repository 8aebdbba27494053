import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatDateTimeOfSeconds, formatDeliveryTime, formatPrice, formatRating, formatTime, parseRupees } from './format';

describe('formatPrice', () => {
  it('shows paise as rupees with the rupee sign', () => {
    expect(formatPrice(24900)).toBe('₹249');
    expect(formatPrice(0)).toBe('₹0');
    expect(formatPrice(40000)).toBe('₹400');
  });

  it('groups digits the Indian way', () => {
    expect(formatPrice(124900)).toBe('₹1,249');
    expect(formatPrice(12345600)).toBe('₹1,23,456');
  });

  it('shows paise only when there are some', () => {
    expect(formatPrice(24950)).toBe('₹249.50');
    expect(formatPrice(-5000)).toBe('-₹50');
  });

  it('refuses amounts that are not integer paise', () => {
    expect(() => formatPrice(249.5)).toThrow(TypeError);
    expect(() => formatPrice(Number.NaN)).toThrow(TypeError);
  });
});

describe('formatRating', () => {
  it("shows '--' when a rating is missing or zero", () => {
    expect(formatRating(null)).toBe('--');
    expect(formatRating(undefined)).toBe('--');
    expect(formatRating(0)).toBe('--');
    expect(formatRating('--')).toBe('--');
  });

  it('shows one decimal', () => {
    expect(formatRating(4.3)).toBe('4.3');
    expect(formatRating(4)).toBe('4.0');
    expect(formatRating(3.96)).toBe('4.0');
    expect(formatRating('4.25')).toBe('4.3');
  });
});

describe('other formats', () => {
  it("shows delivery time as 'min-max MINS'", () => {
    expect(formatDeliveryTime(25, 35)).toBe('25-35 MINS');
    expect(formatDeliveryTime(30, 30)).toBe('30 MINS');
  });
});

describe('formatDateTime and formatTime', () => {
  it("show a moment in India's time", () => {
    expect(formatDateTime('2026-11-26T15:00:00Z')).toBe('26 Nov 2026, 8:30 pm');
    expect(formatTime('2026-11-26T15:00:00Z')).toBe('8:30 pm');
  });

  it('show nothing for a time that is not there', () => {
    expect(formatDateTime('')).toBe('');
    expect(formatTime('soon')).toBe('');
  });
});

describe('formatDate', () => {
  it("shows unix seconds as India's day, and nothing for 0", () => {
    // 26 Nov 2026 20:00 UTC is already the 27th in India.
    expect(formatDate(Date.UTC(2026, 10, 26, 20, 0) / 1000)).toBe('27 Nov 2026');
    expect(formatDate(0)).toBe('');
  });
});

describe('parseRupees', () => {
  it('turns rupees typed with up to two decimals into integer paise', () => {
    expect(parseRupees('120')).toBe(12000);
    expect(parseRupees(' 120.5 ')).toBe(12050);
    expect(parseRupees('0.29')).toBe(29);
    expect(parseRupees('₹1,200.05')).toBe(120005);
  });

  it('refuses what is not an amount rather than rounding it', () => {
    for (const typed of ['', 'abc', '-5', '1.234', '1e3', '.5', '12.']) expect(parseRupees(typed), typed).toBeNull();
  });
});

describe('formatDateTimeOfSeconds', () => {
  it("shows unix seconds as India's date and time, and nothing for 0", () => {
    expect(formatDateTimeOfSeconds(Date.parse('2026-11-26T15:00:00Z') / 1000)).toBe(formatDateTime('2026-11-26T15:00:00Z'));
    expect(formatDateTimeOfSeconds(0)).toBe('');
    expect(formatDateTimeOfSeconds(Number.NaN)).toBe('');
  });
});
