import { installFakeEdge, reply } from '@tiffin/api-client/testing';
import { getCurrentUser, getUserLocation, on, resetCurrentUserForTests, type User } from '@tiffin/contract';
import { resetCart } from '@tiffin/cart-store';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { address, asha, bodyOf, clearCookies } from '../../test/fixtures';
import AuthSidebar, { isValidMobile } from './AuthSidebar';

const otpSent = { mobile: '9876543210', resendAfterSeconds: 30, expiresInSeconds: 600 };

/** A fake edge for sign-in: what auth/otp and auth/verify-otp answer, and every body they got. */
function fakeEdge({ verify = (): unknown => ({ user: asha, signedUp: false, nameRequired: false }), addresses = [] as ReturnType<typeof address>[] } = {}) {
  const bodies: Record<string, Array<Record<string, unknown>>> = {};
  const record = (path: string, init?: RequestInit) => (bodies[path] ??= []).push(bodyOf(init));
  const fetch = installFakeEdge({
    '/api/auth/otp': (_url: URL, init?: RequestInit) => (record('otp', init), otpSent),
    '/api/auth/verify-otp': (_url: URL, init?: RequestInit) => (record('verify', init), verify()),
    '/api/address/all': { addresses },
    '/api/cart': { cartId: 'c', restaurant_details: null, cartItems: [], cartItemsCount: 3, item_total: 0 },
  });
  return { bodies, fetch };
}

function typeInto(name: string, value: string) {
  fireEvent.change(document.querySelector(`input[name="${name}"]`)!, { target: { value } });
}

beforeEach(() => {
  resetCurrentUserForTests();
  resetCart();
  clearCookies();
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('AuthSidebar: validation', () => {
  it('asks for a valid mobile number and closes on Escape', () => {
    const onClose = vi.fn();
    render(<AuthSidebar open mode="login" onClose={onClose} />);

    fireEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter a valid 10-digit mobile number.');

    fireEvent.keyDown(window, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('accepts Indian mobile numbers, with or without +91 or a leading 0', () => {
    expect(isValidMobile('9876543210')).toBe(true);
    expect(isValidMobile('+91 98765 43210')).toBe(true);
    expect(isValidMobile('09876543210')).toBe(true);
    expect(isValidMobile('1234567890')).toBe(false);
    expect(isValidMobile('98765')).toBe(false);
  });

  it('switches between login and sign-up', () => {
    render(<AuthSidebar open mode="login" onClose={() => {}} />);
    fireEvent.click(screen.getByRole('button', { name: 'create an account' }));
    expect(screen.getByRole('dialog', { name: 'Sign up' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'CONTINUE' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter a valid 10-digit mobile number.');
    typeInto('mobile', '9876543210');
    fireEvent.click(screen.getByRole('button', { name: 'CONTINUE' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter your name.');
  });
});

describe('AuthSidebar: login', () => {
  it('sends a code, checks the OTP field, signs in, updates the user, refetches the cart and closes', async () => {
    const { bodies, fetch } = fakeEdge();
    const onClose = vi.fn();
    const changes: Array<User | null> = [];
    const cartCounts: number[] = [];
    const offAuth = on('auth:changed', (user) => changes.push(user));
    const offCart = on('cart:updated', ({ count }) => cartCounts.push(count));
    render(<AuthSidebar open mode="login" onClose={onClose} />);

    typeInto('mobile', '9876543210');
    fireEvent.click(screen.getByRole('button', { name: 'LOGIN' }));

    const otp = await screen.findByPlaceholderText('Enter 6-digit OTP');
    expect(bodies.otp).toEqual([{ mobile: '9876543210', _csrf: '' }]);
    fireEvent.click(screen.getByRole('button', { name: 'VERIFY OTP' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter the OTP.');
    fireEvent.change(otp, { target: { value: '123' } });
    fireEvent.click(screen.getByRole('button', { name: 'VERIFY OTP' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter 6-digit OTP');

    fireEvent.change(otp, { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'VERIFY OTP' }));

    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    await waitFor(() => expect(cartCounts).toContain(3));
    offAuth();
    offCart();
    expect(bodies.verify).toEqual([{ mobile: '9876543210', otp: '123456', _csrf: 'test-csrf' }]);
    expect(changes).toEqual([asha]);
    expect(getCurrentUser()).toEqual(asha);
    expect(fetch.mock.calls.map((c) => new URL(c[0] as string, 'http://x').pathname)).toContain('/api/cart');
    expect(cartCounts).toContain(3);
  });

  it("shows the edge's wrong, expired and locked messages and stays open", async () => {
    const answers = [
      reply(400, 1, 'Incorrect OTP. Please try again.'),
      reply(400, 1, 'OTP expired. Please request a new one.'),
      reply(429, 429, 'Too many attempts. Please try again in 15 minutes.'),
    ];
    fakeEdge({ verify: () => answers.shift() });
    const onClose = vi.fn();
    render(<AuthSidebar open mode="login" onClose={onClose} />);
    typeInto('mobile', '9876543210');
    fireEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    fireEvent.change(await screen.findByPlaceholderText('Enter 6-digit OTP'), { target: { value: '000000' } });

    for (const message of ['Incorrect OTP. Please try again.', 'OTP expired. Please request a new one.', 'Too many attempts. Please try again in 15 minutes.']) {
      fireEvent.click(screen.getByRole('button', { name: 'VERIFY OTP' }));
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(message));
    }
    expect(onClose).not.toHaveBeenCalled();
    expect(getCurrentUser()).toBeNull();
  });

  it('asks a number without an account for a name only after its right code, then signs up with the same code', async () => {
    const answers: unknown[] = [{ signedUp: false, nameRequired: true }, { user: { ...asha, name: 'Ravi' }, signedUp: true, nameRequired: false }];
    const { bodies } = fakeEdge({ verify: () => answers.shift() });
    const onClose = vi.fn();
    render(<AuthSidebar open mode="login" onClose={onClose} />);
    typeInto('mobile', '9876543210');
    fireEvent.click(screen.getByRole('button', { name: 'LOGIN' }));

    // The code step is the same as for any number: nothing says yet whether it has an account.
    await screen.findByPlaceholderText('Enter 6-digit OTP');
    expect(screen.getByRole('dialog', { name: 'Login' })).toBeTruthy();
    expect(document.querySelector('input[name="name"]')).toBeNull();
    typeInto('otp', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'VERIFY OTP' }));

    expect(await screen.findByRole('dialog', { name: 'Sign up' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe("You're new here! Tell us your name to create your account.");
    expect(onClose).not.toHaveBeenCalled();
    expect(getCurrentUser()).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'VERIFY OTP' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter your name.');
    typeInto('name', 'Ravi');
    typeInto('email', 'ravi@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'VERIFY OTP' }));

    await waitFor(() => expect(onClose).toHaveBeenCalledOnce());
    expect(bodies.verify).toEqual([
      { mobile: '9876543210', otp: '123456', _csrf: 'test-csrf' },
      { mobile: '9876543210', otp: '123456', name: 'Ravi', email: 'ravi@example.com', _csrf: 'test-csrf' },
    ]);
    expect(getCurrentUser()?.name).toBe('Ravi');
  });
});

describe('AuthSidebar: resend', () => {
  it('counts down from resendAfterSeconds, then sends the code again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { bodies } = fakeEdge();
    render(<AuthSidebar open mode="login" onClose={() => {}} />);
    typeInto('mobile', '9876543210');
    fireEvent.click(screen.getByRole('button', { name: 'LOGIN' }));

    expect((await screen.findByTestId('resend-countdown')).textContent).toMatch(/^Resend OTP in 0:(30|29)$/);
    expect(screen.queryByRole('button', { name: 'Resend OTP' })).toBeNull();
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.getByTestId('resend-countdown').textContent).toMatch(/^Resend OTP in 0:(20|19)$/);
    act(() => vi.advanceTimersByTime(21_000));

    fireEvent.click(screen.getByRole('button', { name: 'Resend OTP' }));
    await waitFor(() => expect(bodies.otp).toHaveLength(2));
    expect(await screen.findByTestId('resend-countdown')).toBeTruthy();
  });
});

describe('AuthSidebar: default address on sign-in', () => {
  it('sets the location from the saved addresses when none is set: WORK on a weekday morning', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, now: new Date(2025, 2, 3, 11, 0) }); // a Monday
    fakeEdge({ addresses: [address('w1', 'WORK'), address('h1', 'HOME', { area: 'Indiranagar' })] });
    const locations: unknown[] = [];
    const off = on('location:changed', (l) => locations.push(l));
    const onClose = vi.fn();
    render(<AuthSidebar open mode="login" onClose={onClose} />);
    typeInto('mobile', '9876543210');
    fireEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    await screen.findByPlaceholderText('Enter 6-digit OTP');
    typeInto('otp', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'VERIFY OTP' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    off();
    expect(locations).toHaveLength(1);
    expect(getUserLocation()).toMatchObject({ id: 'w1', annotation: 'WORK', lat: 12.9352, lng: 77.6245 });
  });

  it('keeps a location that is already set', async () => {
    const { fetch } = fakeEdge({ addresses: [address('h1', 'HOME')] });
    document.cookie = `userLocation=${encodeURIComponent(JSON.stringify({ lat: 19.07, lng: 72.87, address: 'Bandra', area: 'Bandra', mainText: 'Bandra', city: 'mumbai' }))}; Path=/`;
    const onClose = vi.fn();
    render(<AuthSidebar open mode="login" onClose={onClose} />);
    typeInto('mobile', '9876543210');
    fireEvent.click(screen.getByRole('button', { name: 'LOGIN' }));
    await screen.findByPlaceholderText('Enter 6-digit OTP');
    typeInto('otp', '123456');
    fireEvent.click(screen.getByRole('button', { name: 'VERIFY OTP' }));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(getUserLocation()?.area).toBe('Bandra');
    expect(fetch.mock.calls.map((c) => new URL(c[0] as string, 'http://x').pathname)).not.toContain('/api/address/all');
  });
});
