import { ApiError } from '@tiffin/api-client';
import { fixtures } from '@tiffin/api-client/testing';
import { describe, expect, it } from 'vitest';
import { isNotAnAgent, queueOrder, REFUND_AMOUNT_MESSAGE, refundAmount } from './desk';

describe("the desk's queue", () => {
  it("puts Tiffin One members' conversations first, then the one waiting longest", () => {
    const entries = [
      fixtures.deskQueueEntry({ id: 'newer', updatedAt: 1_796_315_400 }),
      fixtures.deskQueueEntry({ id: 'member-newer', priority: true, updatedAt: 1_796_314_800 }),
      fixtures.deskQueueEntry({ id: 'older', updatedAt: 1_796_310_000 }),
      fixtures.deskQueueEntry({ id: 'member-older', priority: true, updatedAt: 1_796_314_200 }),
    ];
    expect(queueOrder(entries).map((e) => e.id)).toEqual(['member-older', 'member-newer', 'older', 'newer']);
    // The entries given are left as they were.
    expect(entries[0]!.id).toBe('newer');
  });
});

describe("an agent's refund", () => {
  it('is typed in rupees and sent as integer paise', () => {
    expect(refundAmount('120')).toEqual({ paise: 12000 });
    expect(refundAmount('120.5')).toEqual({ paise: 12050 });
    expect(refundAmount('0.29')).toEqual({ paise: 29 });
    expect(refundAmount('₹1,999.99')).toEqual({ paise: 199999 });
  });

  it('is refused when it is not an amount above nothing', () => {
    for (const typed of ['', '0', '0.00', 'ten', '-50', '12.345']) expect(refundAmount(typed), typed).toEqual({ problem: REFUND_AMOUNT_MESSAGE });
  });
});

describe('who may use the desk', () => {
  it("reads the edge's 403 as a session that is not an agent's", () => {
    expect(isNotAnAgent(new ApiError({ kind: 'http', response: new Response('', { status: 403 }) }))).toBe(true);
    expect(isNotAnAgent(new ApiError({ kind: 'http', response: new Response('', { status: 401 }) }))).toBe(false);
    expect(isNotAnAgent(new Error('x'))).toBe(false);
  });
});
