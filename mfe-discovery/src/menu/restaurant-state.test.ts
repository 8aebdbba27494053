import { fixtures } from '@tiffin/api-client/testing';
import { describe, expect, it } from 'vitest';
import type { MenuRestaurant } from './menu-types';
import { collectionLinks, distanceText, feeMessage, offersOf, orderingStatus, ratingCountText } from './restaurant-state';

const restaurant = (overrides: Partial<MenuRestaurant> = {}): MenuRestaurant => fixtures.menuRestaurant({ deliveryState: '', ...overrides });

describe('ordering status and its words', () => {
  it("uses the edge's deliveryState and texts", () => {
    expect(orderingStatus(restaurant({ deliveryState: 'OPEN' }))).toEqual({ state: 'OPEN', text: '', message: '' });
    expect(orderingStatus(restaurant({ deliveryState: 'UNSERVICEABLE', deliveryStateText: 'Does not deliver', deliveryStateMessage: 'Sorry, this restaurant does not deliver to this address' }))).toEqual({
      state: 'UNSERVICEABLE',
      text: 'Does not deliver',
      message: 'Sorry, this restaurant does not deliver to this address',
    });
  });

  it('falls back to the flags with the spec wording, closed first', () => {
    expect(orderingStatus(restaurant({ availability: { opened: false }, unserviceable: true }))).toEqual({
      state: 'CLOSED',
      text: 'Closed & not delivering',
      message: 'Restaurant is currently closed',
    });
    expect(orderingStatus(restaurant({ tmpClosed: true })).text).toBe('Currently not delivering');
    expect(orderingStatus(restaurant({ sla: { ...fixtures.restaurant().sla, serviceability: 'NON_SERVICEABLE' } }))).toMatchObject({
      state: 'UNSERVICEABLE',
      text: 'Does not deliver',
      message: 'Sorry, this restaurant does not deliver to this address',
    });
    expect(orderingStatus(restaurant()).state).toBe('OPEN');
  });
});

describe('header texts', () => {
  it("shows '--' for a missing rating count, and the distance only when known", () => {
    expect(ratingCountText(restaurant({ totalRatingsString: '' }))).toBe('--');
    expect(ratingCountText(restaurant())).toBe('1K+ ratings');
    expect(distanceText(restaurant())).toBe('2.4 km');
    expect(distanceText(restaurant({ sla: { ...fixtures.restaurant().sla, lastMileTravel: 0 } }))).toBe('');
  });

  it('reads the fee message from feeDetails', () => {
    expect(feeMessage(restaurant({ feeDetails: { message: '2.4 kms | Delivery fee will apply', icon: 'delivery' } }))).toBe('2.4 kms | Delivery fee will apply');
    expect(feeMessage(restaurant({ feeDetails: null }))).toBe('');
  });

  it('builds the offers strip from offers with coupon codes, else the short descriptions', () => {
    expect(offersOf(restaurant({ offers: [{ offerId: 'o1', header: '20% OFF UPTO ₹100', couponCode: 'TIFFIN20', description: 'Use TIFFIN20 | above ₹249' }] }))).toEqual([
      { title: '20% OFF UPTO ₹100', couponCode: 'TIFFIN20', description: 'Use TIFFIN20 | above ₹249' },
    ]);
    expect(offersOf(restaurant())).toEqual([{ title: '20% OFF UPTO ₹100', couponCode: '', description: '' }]);
    expect(offersOf(restaurant({ offers: [], aggregatedDiscountInfo: null }))).toEqual([]);
  });

  it("links the restaurant's cuisines to listing pages", () => {
    expect(collectionLinks(restaurant({ cuisines: ['North Indian', 'Café'] }))).toEqual([
      { name: 'North Indian restaurants near you', href: '/north-indian-restaurants-near-me' },
      { name: 'Café restaurants near you', href: '/cafe-restaurants-near-me' },
    ]);
  });
});
