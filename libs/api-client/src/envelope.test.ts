import { describe, expect, it } from 'vitest';
import { isSuccess, messageOf, statusOf } from './envelope';

describe('envelope', () => {
  it('reads the status from statusCode, else failure.errorCode, else -1', () => {
    expect(statusOf({ statusCode: 0, data: null })).toBe(0);
    expect(statusOf({ failure: { errorCode: 11 }, data: null })).toBe(11);
    expect(statusOf({ data: null })).toBe(-1);
    expect(statusOf('oops')).toBe(-1);
  });

  it('reads the message from statusMessage, else the success or failure message', () => {
    expect(messageOf({ statusMessage: 'done', data: null })).toBe('done');
    expect(messageOf({ failure: { message: 'Insufficient cart value' }, data: null })).toBe('Insufficient cart value');
    expect(messageOf({ success: { message: 'Saved' }, data: null })).toBe('Saved');
    expect(messageOf({ data: null })).toBeUndefined();
  });

  it('treats only 0 as success, and 0, 8 and 9 for the cart family', () => {
    expect(isSuccess({ statusCode: 0, data: null })).toBe(true);
    expect(isSuccess({ statusCode: 8, data: null })).toBe(false);
    expect([0, 8, 9, 11].map((statusCode) => isSuccess({ statusCode, data: null }, 'cart'))).toEqual([true, true, true, false]);
  });
});
