import { afterEach, describe, expect, it } from 'vitest';
import { markInitialReplyUsed, peekInitialEnvelope, peekInitialReply } from './initial-reply';
import { carryFirstReply } from './testing';

const listing = { totalRestaurants: 3 };
let undo: (() => void) | undefined;

afterEach(() => {
  undo?.();
  undo = undefined;
});

function carry(page = '/restaurants') {
  undo = carryFirstReply({
    path: 'restaurants/list/v5',
    query: { lat: 12.9352, lng: 77.6245, page_type: 'DESKTOP_WEB_LISTING', offset: 0 },
    page,
    data: listing,
  });
}

const call = { lat: 12.9352, lng: 77.6245, collection: undefined, page_type: 'DESKTOP_WEB_LISTING', offset: 0 };

describe('the first reply a page carries', () => {
  it('answers the very call it was made for, whatever the order of the query', () => {
    carry();
    expect(peekInitialReply('restaurants/list/v5', { offset: 0, page_type: 'DESKTOP_WEB_LISTING', lng: 77.6245, lat: 12.9352 })).toEqual(listing);
    expect(peekInitialReply('restaurants/list/v5', call)).toEqual(listing);
  });

  it('answers no other call: another point, page, offset or path', () => {
    carry();
    expect(peekInitialReply('restaurants/list/v5', { ...call, lat: 12.9 })).toBeUndefined();
    expect(peekInitialReply('restaurants/list/v5', { ...call, offset: 15 })).toBeUndefined();
    expect(peekInitialReply('restaurants/list/v5', { ...call, collection: '80002' })).toBeUndefined();
    expect(peekInitialReply('menu/pl', call)).toBeUndefined();
  });

  it('is only for the page the document was served for', () => {
    carry('/restaurants');
    window.history.replaceState(null, '', '/offers');
    expect(peekInitialReply('restaurants/list/v5', call)).toBeUndefined();
  });

  it('is used once', () => {
    carry();
    expect(peekInitialReply('restaurants/list/v5', call)).toEqual(listing);
    markInitialReplyUsed();
    expect(peekInitialReply('restaurants/list/v5', call)).toBeUndefined();
  });

  it('is nothing when the page carries none', () => {
    expect(peekInitialReply('restaurants/list/v5', call)).toBeUndefined();
  });

  it('comes as an envelope with the code it was answered with (0 when the page names none)', () => {
    const cart = { cartItems: [{ name: 'Dosa' }] };
    undo = carryFirstReply({ path: 'cart', query: {}, page: '/cart', data: cart, statusCode: 8 });
    expect(peekInitialEnvelope('cart', {})).toEqual({ statusCode: 8, data: cart });
    expect(peekInitialEnvelope('cart', { address_id: 'a1' })).toBeUndefined();
    undo();
    carry();
    expect(peekInitialEnvelope('restaurants/list/v5', call)).toEqual({ statusCode: 0, data: listing });
  });
});
