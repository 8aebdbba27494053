import { fixtures } from '@tiffin/api-client/testing';
import { describe, expect, it } from 'vitest';
import { asksForItems, asksForRefundTo, chosenLines, clampQuantity, defaultRefundTo, orderHelpBody, refundPaise } from './order-help';

const help = fixtures.orderHelp();
const [tikka, naan] = help.items as [(typeof help.items)[0], (typeof help.items)[0]];

describe('order help: the lines and the refund', () => {
  it('never asks for more of a line than can still be refunded, nor less than none', () => {
    expect(clampQuantity(tikka, 5)).toBe(2);
    expect(clampQuantity(tikka, -1)).toBe(0);
    expect(clampQuantity(tikka, 1.7)).toBe(1);
    expect(clampQuantity(tikka, Number.NaN)).toBe(0);
    expect(clampQuantity({ ...naan, refundableQuantity: 0 }, 1)).toBe(0);
  });

  it("sums each chosen line's refund for one unit times the units", () => {
    expect(refundPaise(help.items, {})).toBe(0);
    expect(refundPaise(help.items, { 1: 1 })).toBe(17910);
    expect(refundPaise(help.items, { 1: 2, 2: 1 })).toBe(2 * 17910 + 4410);
    // Above what can be refunded counts as the most that can.
    expect(refundPaise(help.items, { 1: 9 })).toBe(2 * 17910);
  });

  it('sends only the lines chosen, in the order of the order', () => {
    expect(chosenLines(help.items, { 2: 1, 1: 0 })).toEqual([{ lineId: 2, quantity: 1 }]);
    expect(chosenLines(help.items, { 2: 1, 1: 3 })).toEqual([
      { lineId: 1, quantity: 2 },
      { lineId: 2, quantity: 1 },
    ]);
  });
});

describe('order help: the choices', () => {
  it('asks for lines for missing and wrong items, and where the money goes for those and a cancel', () => {
    expect(['MISSING_ITEMS', 'WRONG_ITEM', 'QUALITY', 'LATE_DELIVERY', 'CANCEL'].map((i) => asksForItems(i as never))).toEqual([true, true, false, false, false]);
    expect(['MISSING_ITEMS', 'WRONG_ITEM', 'QUALITY', 'LATE_DELIVERY', 'CANCEL'].map((i) => asksForRefundTo(i as never))).toEqual([true, true, false, false, true]);
  });

  it('refunds to the payment by default, and to Tiffin Money when that is all there is', () => {
    expect(defaultRefundTo(help)).toBe('SOURCE');
    expect(defaultRefundTo({ refundTo: ['TIFFIN_MONEY'] })).toBe('TIFFIN_MONEY');
  });

  it('builds the body for missing items with the lines and the destination', () => {
    expect(orderHelpBody(help, { issue: 'MISSING_ITEMS', chosen: { 1: 1 }, refundTo: 'TIFFIN_MONEY', message: ' ' })).toEqual({
      body: { orderId: '123', issue: 'MISSING_ITEMS', items: [{ lineId: 1, quantity: 1 }], refundTo: 'TIFFIN_MONEY' },
    });
  });

  it('says what is missing instead of sending', () => {
    expect(orderHelpBody(help, { issue: null, chosen: {}, refundTo: 'SOURCE', message: '' })).toEqual({ problem: 'Choose what went wrong with your order.' });
    expect(orderHelpBody(help, { issue: 'WRONG_ITEM', chosen: {}, refundTo: 'SOURCE', message: '' })).toEqual({ problem: 'Choose the items and how many of each.' });
    expect(orderHelpBody(help, { issue: 'WRONG_ITEM', chosen: { 2: 1 }, refundTo: null, message: '' })).toEqual({ problem: 'Choose where your refund should go.' });
    expect(orderHelpBody(help, { issue: 'OTHER', chosen: {}, refundTo: null, message: '  ' })).toEqual({ problem: 'Tell us what happened.' });
    expect(orderHelpBody(help, { issue: 'CANCEL', chosen: {}, refundTo: 'SOURCE', message: '' })).toEqual({ problem: 'A delivered order cannot be cancelled.' });
  });

  it("sends the customer's words with an issue for an agent, and nothing about items or refunds", () => {
    expect(orderHelpBody(help, { issue: 'QUALITY', chosen: { 1: 1 }, refundTo: 'SOURCE', message: ' Cold paneer ' })).toEqual({
      body: { orderId: '123', issue: 'QUALITY', message: 'Cold paneer' },
    });
    expect(orderHelpBody(help, { issue: 'LATE_DELIVERY', chosen: {}, refundTo: 'SOURCE', message: '' })).toEqual({ body: { orderId: '123', issue: 'LATE_DELIVERY' } });
  });
});
