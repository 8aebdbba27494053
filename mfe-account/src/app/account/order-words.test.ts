import { describe, expect, it } from 'vitest';
import { asksRefundDestination, billAmount, cancellationFeeWords, chargesThatApply, itemsSummary, paymentMethodWords } from './order-words';

describe('order words', () => {
  it('sum up the items on one line', () => {
    expect(itemsSummary([{ name: 'Paneer Tikka', quantity: 2 }, { name: 'Naan', quantity: 1 }])).toBe('Paneer Tikka x 2, Naan x 1');
    expect(itemsSummary([])).toBe('');
  });

  it('name the payment method, and ask about the refund only where there is a choice', () => {
    expect(['card', 'upi_collect', 'cod', 'wallet', 'tiffin_money', 'gift_card'].map(paymentMethodWords)).toEqual(['Card', 'UPI', 'Cash on Delivery', 'Wallet', 'Tiffin Money', 'gift_card']);
    expect(['card', 'upi_collect', 'wallet', 'cod', 'tiffin_money', ''].map(asksRefundDestination)).toEqual([true, true, true, false, false, false]);
  });

  it('sign what the bill takes off', () => {
    expect(billAmount({ value: 7950, is_negative: true })).toBe('-₹79.50');
    expect(billAmount({ value: 4900, is_negative: false })).toBe('₹49');
  });

  it('list only the charges that apply, in a fixed order', () => {
    expect(chargesThatApply({ GST: 1500, 'Delivery Charges': 4900, 'Service Charges': 0, 'Cancellation Fee': 2500, Vat: 100 })).toEqual([
      { name: 'Delivery Charges', amount: 4900 },
      { name: 'GST', amount: 1500 },
      { name: 'Cancellation Fee', amount: 2500 },
      { name: 'Vat', amount: 100 },
    ]);
  });

  it('say what cancelling costs', () => {
    expect(cancellationFeeWords(0)).toBe('Cancelling now is free.');
    expect(cancellationFeeWords(2500)).toBe('A cancellation fee of ₹25 applies.');
  });
});
