import { fixtures } from '@tiffin/api-client/testing';
import { describe, expect, it } from 'vitest';
import { pollIntervalMs, restaurantPhone, statusLine, trackingMap, WAITING_MESSAGE } from './tracking-rules';

const details = fixtures.tracking().order_status_details;

describe('poll interval', () => {
  it("is the snapshot's seconds in milliseconds", () => {
    expect(pollIntervalMs(fixtures.tracking({ configuration: { polling_interval_seconds: 15 } }))).toBe(15_000);
  });

  it('is 30 s when nothing names one', () => {
    expect(pollIntervalMs(null)).toBe(30_000);
    expect(pollIntervalMs({})).toBe(30_000);
    expect(pollIntervalMs({ configuration: null })).toBe(30_000);
    expect(pollIntervalMs({ configuration: {} })).toBe(30_000);
  });

  it('falls back to 60 s for 0 or less', () => {
    expect(pollIntervalMs({ configuration: { polling_interval_seconds: 0 } })).toBe(60_000);
    expect(pollIntervalMs({ configuration: { polling_interval_seconds: -5 } })).toBe(60_000);
  });
});

describe('status line', () => {
  const placed = (messages: Array<{ body: string }>, status_message = '') =>
    fixtures.tracking({ order_status: 'PLACED', status_code: 'PLACED', order_status_details: { ...details, status_tag_text: 'Order Received', status_message, messages } });

  it('asks for patience while an order waits for the restaurant and has no message', () => {
    expect(statusLine(placed([]))).toBe(WAITING_MESSAGE);
    expect(statusLine(placed([{ body: '  ' }], 'Placed'))).toBe(WAITING_MESSAGE);
    expect(WAITING_MESSAGE).toBe('We are waiting for the restaurant to confirm your order');
  });

  it("shows the first message's body when there is one", () => {
    expect(statusLine(placed([{ body: 'The restaurant is busy, hang on' }, { body: 'second' }]))).toBe('The restaurant is busy, hang on');
  });

  it('shows the status message otherwise, even an empty one', () => {
    expect(statusLine(fixtures.tracking())).toBe('Meghana Foods is preparing your order');
    expect(statusLine(fixtures.tracking({ order_status_details: { ...details, status_message: '' } }))).toBe('');
  });
});

describe("restaurant's phone", () => {
  const withLink = (secondary_cta_link: string | null) =>
    fixtures.tracking({ order_status_details: { ...details, delivery_instruction_details: secondary_cta_link === null ? null : { secondary_cta_link } } });

  it('comes from the phoneNumber parameter of the call link', () => {
    expect(restaurantPhone(withLink('/call?phoneNumber=%2B918041234567'))).toBe('+918041234567');
    expect(restaurantPhone(withLink('https://tiffin.example/call?x=1&phoneNumber=080%2041234567'))).toBe('08041234567');
  });

  it('is null without a link or a number, and never carries more than digits and a leading +', () => {
    expect(restaurantPhone(withLink(null))).toBeNull();
    expect(restaurantPhone(withLink('/call'))).toBeNull();
    expect(restaurantPhone(withLink('/call?phoneNumber=javascript:alert(1)'))).toBeNull();
    expect(restaurantPhone(withLink('/call?phoneNumber=%2B91%2B80;ext=12'))).toBe('+918012');
  });
});

describe('what the map draws', () => {
  it('the restaurant, the address, the rider and the route, in the map’s points', () => {
    expect(trackingMap(fixtures.tracking())).toEqual({
      restaurant: { point: { lat: 12.9352, lng: 77.6245 }, name: 'Meghana Foods' },
      destination: { lat: 12.9279, lng: 77.6271 },
      rider: { point: { lat: 12.93, lng: 77.62 }, name: 'Ravi' },
      route: [
        { lat: 12.93, lng: 77.62 },
        { lat: 12.9352, lng: 77.6245 },
        { lat: 12.9279, lng: 77.6271 },
      ],
      connector: true,
    });
  });

  it('no route unless show_polyline, no rider before one is assigned, no map unless show_map', () => {
    const map = fixtures.tracking().map_details;
    expect(trackingMap(fixtures.tracking({ map_details: { ...map, show_polyline: false, rider: null } }))).toMatchObject({ route: [], rider: null });
    expect(trackingMap(fixtures.tracking({ map_details: { ...map, show_map: false } }))).toBeNull();
  });
});
