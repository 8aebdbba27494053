import { fixtures } from '@tiffin/api-client/testing';
import { describe, expect, it } from 'vitest';
import { areaText, costForTwoText, deliveryTimeText, isOpen, offerText, ratingText } from './restaurant-format';

const restaurant = fixtures.restaurant;

describe('restaurant card text', () => {
  it("shows the rating with one decimal, '--' when there is none", () => {
    expect(ratingText(restaurant({ avgRating: 4.3 }))).toBe('4.3');
    expect(ratingText(restaurant({ avgRating: 4 }))).toBe('4.0');
    expect(ratingText(restaurant({ avgRating: null, avgRatingString: '--' }))).toBe('--');
    expect(ratingText(restaurant({ avgRating: 0, avgRatingString: '0' }))).toBe('--');
  });

  it("shows delivery time as 'min-max MINS', else the edge's SLA string", () => {
    expect(deliveryTimeText(restaurant())).toBe('25-35 MINS');
    const sla = restaurant().sla;
    expect(deliveryTimeText(restaurant({ sla: { ...sla, minDeliveryTime: 30, maxDeliveryTime: 30 } }))).toBe('30 MINS');
    expect(deliveryTimeText(restaurant({ sla: { ...sla, minDeliveryTime: 0, maxDeliveryTime: 0, slaString: '40 MINS' } }))).toBe('40 MINS');
  });

  it("shows the cost for two from paise as '₹N FOR TWO'", () => {
    expect(costForTwoText(40000)).toBe('₹400 FOR TWO');
    expect(costForTwoText(125000)).toBe('₹1,250 FOR TWO');
    expect(costForTwoText(0)).toBe('');
    expect(costForTwoText(Number.NaN)).toBe('');
  });

  it('takes the first offer line', () => {
    expect(offerText(restaurant())).toBe('20% OFF UPTO ₹100');
    expect(offerText(restaurant({ aggregatedDiscountInfo: null }))).toBeNull();
  });

  it('knows open from closed, and joins area and locality', () => {
    expect(isOpen(restaurant())).toBe(true);
    expect(isOpen(restaurant({ availability: { opened: false } }))).toBe(false);
    expect(areaText(restaurant())).toBe('Koramangala, 5th Block');
    expect(areaText(restaurant({ locality: '' }))).toBe('Koramangala');
  });
});
