/** The edge as the shell's tests see it: a city list and an empty cart, plus any overrides. */
import { installFakeEdge as install, type FakeEdgeTable } from '@tiffin/api-client/testing';

export function installFakeEdge(overrides: FakeEdgeTable = {}) {
  return install({
    '/api/misc/cities': { cities: [{ slug: 'bangalore', name: 'Bangalore', enabled: true }, { slug: 'test-city', name: 'Test', enabled: true }] },
    '/api/cart': { cartItemsCount: 0, cartItems: [], restaurant_details: null, item_total: 0, cartId: 'c' },
    ...overrides,
  });
}
