import { describe, expect, it } from 'vitest';
import { submissionKeys } from './idempotency';

describe('submission keys', () => {
  it('keeps the key while the submission is the same, and makes a fresh one when it changes', () => {
    let n = 0;
    const keyFor = submissionKeys(() => `k${++n}`);
    const body = { orderId: '123', issue: 'MISSING_ITEMS', items: [{ lineId: 'l1', quantity: 1 }] };
    expect(keyFor(body)).toBe('k1');
    expect(keyFor({ ...body })).toBe('k1');
    expect(keyFor({ ...body, items: [{ lineId: 'l1', quantity: 2 }] })).toBe('k2');
    expect(keyFor(body)).toBe('k3');
  });

  it('makes random keys by default', () => {
    const a = submissionKeys()({ a: 1 });
    const b = submissionKeys()({ a: 1 });
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });
});
