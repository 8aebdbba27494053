import { describe, expect, it } from 'vitest';
import { invoiceHref, isFinalOrderStatus, orderDetailsHref, orderHelpHref, orderStatusWords, trackOrderHref } from './orders';

describe('order links', () => {
  it('point at the routes that show an order', () => {
    expect(trackOrderHref('123')).toBe('/track-order/123');
    expect(orderDetailsHref('123')).toBe('/my-account/orders/123');
    expect(orderHelpHref('123')).toBe('/support?order_id=123');
    expect(invoiceHref('123')).toBe('/invoice/download/123');
  });

  it('keep an odd id inside its own path segment', () => {
    expect(trackOrderHref('a/b')).toBe('/track-order/a%2Fb');
    expect(orderHelpHref('1&x=2')).toBe('/support?order_id=1%26x%3D2');
  });
});

describe('order statuses', () => {
  it('are final once delivered, cancelled or abandoned', () => {
    expect(['DELIVERED', 'CANCELLED', 'ABANDONED', 'delivered'].map(isFinalOrderStatus)).toEqual([true, true, true, true]);
    expect(['AWAITING_PAYMENT', 'PLACED', 'PREPARING', 'PICKED_UP', 'ARRIVING'].map(isFinalOrderStatus)).toEqual([false, false, false, false, false]);
  });

  it("read in the customer's words, unknown ones included", () => {
    expect(orderStatusWords('PICKED_UP')).toBe('Picked up');
    expect(orderStatusWords('RIDER_ASSIGNED')).toBe('Delivery partner assigned');
    expect(orderStatusWords('ON_HOLD')).toBe('On hold');
  });
});
