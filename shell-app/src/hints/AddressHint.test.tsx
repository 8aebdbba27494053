import {
  applyDefaultAddress,
  DEFAULT_ADDRESS_APPLIED_COOKIE,
  DEFAULT_ADDRESS_DECLINED_COOKIE,
  getUserLocation,
  on,
  setCurrentUser,
  type Address,
  type User,
  type UserLocation,
} from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HINT_SESSION_KEYS } from './hint-rules';
import { LocationHints } from './LocationHints';

const asha: User = {
  customer_id: '17',
  mobile: '9876543210',
  name: 'Asha',
  email: '',
  pendingEmail: '',
  emailVerified: false,
  optional_map: {},
  preferences: { sms: { orders: true, recommendations: true, reminders: false } },
};

function saved(id: string, annotation: Address['annotation'], address: string): Address {
  return { id, annotation, address, area: 'Koramangala', flat_no: '', landmark: '', lat: 12.9352, lng: 77.6245, mobile: '9876543210', instructions: '', city: 'bangalore', delivery_valid: 1 };
}

const WORK = saved('w1', 'WORK', '4th Floor, 80 Feet Road, Koramangala');
const HOME = saved('h1', 'HOME', 'Flat 4B, 12 1st Cross, Koramangala');
// 2025-03-03 is a Monday: 11:00 picks WORK, 20:00 picks HOME (local time, default-address rule).
const mondayAt = (h: number) => new Date(2025, 2, 3, h, 0);

/** Signs Asha in and lets the sign-in rule choose her default address, as mfe-account does. */
function signInWithDefault(now: Date): UserLocation {
  setCurrentUser(asha);
  applyDefaultAddress([HOME, WORK], now);
  return getUserLocation()!;
}

function renderHints(location: UserLocation | null, pageType: 'HOME' | 'LISTING' = 'HOME') {
  return render(<LocationHints pageType={pageType} location={location} tooltipAllowed={false} />);
}

function collectOpens() {
  const opens: unknown[] = [];
  const off = on('location:open', (detail) => opens.push(detail));
  return { opens, off };
}

function clearCookies() {
  for (const name of ['userLocation', DEFAULT_ADDRESS_APPLIED_COOKIE, DEFAULT_ADDRESS_DECLINED_COOKIE]) {
    document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

beforeEach(() => {
  window.sessionStorage.clear();
  clearCookies();
  Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
});

afterEach(() => {
  cleanup();
  setCurrentUser(null);
  clearCookies();
  vi.unstubAllGlobals();
});

describe('address hint', () => {
  it('tells a signed-in customer which saved address was chosen for them', () => {
    const location = signInWithDefault(mondayAt(11));
    renderHints(location);

    const hint = screen.getByTestId('address-hint');
    expect(hint.textContent).toContain('Delivering to Work');
    expect(hint.textContent).toContain('4th Floor, 80 Feet Road, Koramangala');
    expect(window.sessionStorage.getItem(HINT_SESSION_KEYS.address)).toBe('1');
  });

  it('names Home in the evening', () => {
    renderHints(signInWithDefault(mondayAt(20)));
    expect(screen.getByTestId('address-hint').textContent).toContain('Delivering to Home');
    expect(screen.getByTestId('address-hint').textContent).toContain('Flat 4B, 12 1st Cross');
  });

  it('shows once: this session (sessionStorage) and later visits (the cookie loses its flag)', () => {
    const location = signInWithDefault(mondayAt(11));
    renderHints(location);
    expect(screen.getByTestId('address-hint')).toBeTruthy();
    // Where to deliver is unchanged; only the flag is gone.
    expect(getUserLocation()).toMatchObject({ id: 'w1', lat: 12.9352, lng: 77.6245 });
    expect(getUserLocation()?.showUserDefaultAddressHint).toBeUndefined();
    cleanup();

    renderHints(location);
    expect(screen.queryByTestId('address-hint')).toBeNull();
    cleanup();

    // A new session reads the location from the cookie: no flag, no hint.
    window.sessionStorage.clear();
    renderHints(getUserLocation());
    expect(screen.queryByTestId('address-hint')).toBeNull();
  });

  it('never shows for a guest or for a location the customer picked', () => {
    const location = signInWithDefault(mondayAt(11));
    setCurrentUser(null);
    renderHints(location);
    expect(screen.queryByTestId('address-hint')).toBeNull();
    cleanup();

    setCurrentUser(asha);
    const { showUserDefaultAddressHint: _flag, ...picked } = location;
    renderHints(picked);
    expect(screen.queryByTestId('address-hint')).toBeNull();
    expect(window.sessionStorage.getItem(HINT_SESSION_KEYS.address)).toBeNull();
  });

  it('OKAY keeps the address and hides the hint', () => {
    const { opens, off } = collectOpens();
    renderHints(signInWithDefault(mondayAt(11)));
    fireEvent.click(screen.getByRole('button', { name: 'OKAY' }));
    off();
    expect(screen.queryByTestId('address-hint')).toBeNull();
    expect(opens).toHaveLength(0);
    expect(document.cookie).not.toContain(DEFAULT_ADDRESS_DECLINED_COOKIE);
  });

  it('CHANGE opens the location sidebar and turns the default down for a day', () => {
    const { opens, off } = collectOpens();
    renderHints(signInWithDefault(mondayAt(11)));
    fireEvent.click(screen.getByRole('button', { name: 'CHANGE' }));
    off();
    expect(screen.queryByTestId('address-hint')).toBeNull();
    expect(opens).toEqual([{}]);
    expect(document.cookie).toContain(`${DEFAULT_ADDRESS_DECLINED_COOKIE}=1`);
  });

  it('hides on any click and on a scroll beyond 20 px, not before', () => {
    renderHints(signInWithDefault(mondayAt(11)));
    act(() => document.body.click());
    expect(screen.queryByTestId('address-hint')).toBeNull();
    cleanup();

    window.sessionStorage.clear();
    renderHints(signInWithDefault(mondayAt(11)));
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: 20, configurable: true });
      window.dispatchEvent(new Event('scroll'));
    });
    expect(screen.getByTestId('address-hint')).toBeTruthy();
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: 21, configurable: true });
      window.dispatchEvent(new Event('scroll'));
    });
    expect(screen.queryByTestId('address-hint')).toBeNull();
  });

  it('hides when the customer picks another location', () => {
    const location = signInWithDefault(mondayAt(11));
    const { rerender } = renderHints(location);
    expect(screen.getByTestId('address-hint')).toBeTruthy();
    rerender(<LocationHints pageType="HOME" location={{ lat: 28.63, lng: 77.21, address: 'Connaught Place', area: 'CP', mainText: 'CP', city: 'delhi' }} tooltipAllowed={false} />);
    expect(screen.queryByTestId('address-hint')).toBeNull();
  });

  it('holds the different-location hint back until it is gone', async () => {
    // The device is in Delhi, far from the Bangalore address chosen for the customer.
    const getCurrentPosition = vi.fn((ok: PositionCallback) => ok({ coords: { latitude: 28.6315, longitude: 77.2167 } } as GeolocationPosition));
    vi.stubGlobal('navigator', { geolocation: { getCurrentPosition }, permissions: { query: async () => ({ state: 'granted' }) } });
    renderHints(signInWithDefault(mondayAt(11)), 'LISTING');
    await act(async () => {
      await Promise.resolve();
      await Promise.resolve();
    });
    expect(screen.getByTestId('address-hint')).toBeTruthy();
    expect(screen.queryByTestId('different-location-hint')).toBeNull();
    expect(window.sessionStorage.getItem(HINT_SESSION_KEYS['different-location'])).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'OKAY' }));
    await act(async () => {
      await Promise.resolve();
      await Promise.resolve();
    });
    expect(screen.queryByTestId('address-hint')).toBeNull();
    expect(screen.getByTestId('different-location-hint')).toBeTruthy();
  });
});
