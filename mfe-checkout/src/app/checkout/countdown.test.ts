import { describe, expect, it } from 'vitest';
import { countdownColour, countdownDeadline, formatRemaining, UPI_MAX_WAIT_MS } from './countdown';

describe('the UPI countdown', () => {
  it('is green under half elapsed, orange from half to under three quarters, red from three quarters', () => {
    expect(countdownColour(0)).toBe('green');
    expect(countdownColour(0.4999)).toBe('green');
    expect(countdownColour(0.5)).toBe('orange');
    expect(countdownColour(0.7499)).toBe('orange');
    expect(countdownColour(0.75)).toBe('red');
    expect(countdownColour(1)).toBe('red');
  });

  it('never waits longer than 3 minutes, whatever the payment says', () => {
    const start = Date.parse('2026-11-26T10:00:00Z');
    expect(countdownDeadline(start, '2026-11-26T10:10:00Z')).toBe(start + UPI_MAX_WAIT_MS);
    expect(countdownDeadline(start, '2026-11-26T10:01:00Z')).toBe(start + 60_000);
    expect(countdownDeadline(start, '')).toBe(start + UPI_MAX_WAIT_MS);
  });

  it('shows minutes and seconds', () => {
    expect(formatRemaining(180_000)).toBe('3:00');
    expect(formatRemaining(75_000)).toBe('1:15');
    expect(formatRemaining(-5)).toBe('0:00');
  });
});
