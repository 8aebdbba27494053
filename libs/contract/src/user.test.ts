import { afterEach, describe, expect, it } from 'vitest';
import type { User } from './edge-types';
import { on } from './events';
import {
  displayName,
  forgetUserLocalState,
  getCurrentUser,
  isSuperMember,
  readInitialUser,
  resetCurrentUserForTests,
  setCurrentUser,
  subscribeCurrentUser,
} from './user';

const asha: User = {
  customer_id: '17',
  mobile: '9876543210',
  name: 'Asha Rao',
  email: 'asha@example.com',
  pendingEmail: '',
  emailVerified: true,
  optional_map: {},
  preferences: { sms: { orders: true, recommendations: true, reminders: false } },
};

function injectInitialState(text: string) {
  const script = document.createElement('script');
  script.id = 'tiffin-initial-state';
  script.type = 'application/json';
  script.textContent = text;
  document.head.append(script);
}

afterEach(() => {
  document.getElementById('tiffin-initial-state')?.remove();
  resetCurrentUserForTests();
});

describe('current user', () => {
  it("starts from the initial state's user", () => {
    injectInitialState(JSON.stringify({ sid: 's', csrfToken: 'c', user: asha }));
    expect(getCurrentUser()).toEqual(asha);
  });

  it('is null for a visitor, a missing block or a malformed one', () => {
    injectInitialState('{"sid":"s","user":null}');
    expect(readInitialUser()).toBeNull();
    document.getElementById('tiffin-initial-state')!.textContent = '{oops';
    expect(readInitialUser()).toBeNull();
    document.getElementById('tiffin-initial-state')!.remove();
    expect(getCurrentUser()).toBeNull();
  });

  it('announces every change with auth:changed', () => {
    const seen: Array<User | null> = [];
    let notified = 0;
    const off = on('auth:changed', (user) => seen.push(user));
    const unsubscribe = subscribeCurrentUser(() => (notified += 1));

    setCurrentUser(asha);
    expect(getCurrentUser()).toEqual(asha);
    setCurrentUser(null);
    off();
    unsubscribe();

    expect(seen).toEqual([asha, null]);
    expect(notified).toBe(2);
    expect(getCurrentUser()).toBeNull();
  });
});

describe('displayName', () => {
  it('is the first name, or the mobile without a name', () => {
    expect(displayName(asha)).toBe('Asha');
    expect(displayName({ name: '  ', mobile: '9876543210' })).toBe('9876543210');
  });
});

describe('forgetUserLocalState', () => {
  it('removes the delivery address id from its cookie and from storage', () => {
    document.cookie = 'deliveryAddressId=a1; Path=/';
    localStorage.setItem('tfn_dweb_deliveryAddressId', 'a1');

    forgetUserLocalState();

    expect(document.cookie).not.toContain('deliveryAddressId');
    expect(localStorage.getItem('tfn_dweb_deliveryAddressId')).toBeNull();
  });

  it('removes a guest cart copy, so the next guest on this browser does not get the account cart', () => {
    localStorage.setItem('tfn_dweb_cartV2', '{"restaurantId":1,"lines":[]}');

    forgetUserLocalState();

    expect(localStorage.getItem('tfn_dweb_cartV2')).toBeNull();
  });
});

describe('isSuperMember', () => {
  it('marks a member by a value equal to SUPER in any case, and nobody else', () => {
    expect(isSuperMember({ optional_map: { super_status: 'SUPER' } })).toBe(true);
    expect(isSuperMember({ optional_map: { super_status: 'super' } })).toBe(true);
    expect(isSuperMember({ optional_map: { super_status: 'WAS_SUPER' } })).toBe(false);
    expect(isSuperMember({ optional_map: { super_status: 'NOT_SUPER' } })).toBe(false);
    expect(isSuperMember({ optional_map: {} })).toBe(false);
    expect(isSuperMember(asha)).toBe(false);
    expect(isSuperMember(null)).toBe(false);
  });
});
