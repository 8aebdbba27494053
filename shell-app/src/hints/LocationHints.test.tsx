import { on, type PageType, type UserLocation } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HINT_SESSION_KEYS } from './hint-rules';
import { LocationHints, SET_LOCATION_TEXT } from './LocationHints';

const KORAMANGALA: UserLocation = { lat: 12.9352, lng: 77.6245, address: 'Koramangala, Bangalore', area: 'Koramangala', mainText: 'Koramangala', city: 'bangalore' };
const DELHI = { lat: 28.6315, lng: 77.2167 };
const NEAR_KORAMANGALA = { lat: 12.94, lng: 77.63 };

/** A device whose position is `position` when the permission is `state`; records every read. */
function device(position: { lat: number; lng: number }, state: PermissionState = 'granted') {
  const getCurrentPosition = vi.fn((ok: PositionCallback) => ok({ coords: { latitude: position.lat, longitude: position.lng } } as GeolocationPosition));
  vi.stubGlobal('navigator', { geolocation: { getCurrentPosition }, permissions: { query: async () => ({ state }) } });
  return getCurrentPosition;
}

/** Lets the permission query and the position callback (promises) settle. */
async function settle() {
  await act(async () => {
    await Promise.resolve();
    await Promise.resolve();
  });
}

function renderHints(pageType: PageType, location: UserLocation | null, tooltipAllowed = false) {
  return render(<LocationHints pageType={pageType} location={location} tooltipAllowed={tooltipAllowed} />);
}

function collectOpens() {
  const opens: unknown[] = [];
  const off = on('location:open', (detail) => opens.push(detail));
  return { opens, off };
}

function scrollTo(y: number) {
  act(() => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    window.dispatchEvent(new Event('scroll'));
  });
}

beforeEach(() => {
  window.sessionStorage.clear();
  Object.defineProperty(window, 'scrollY', { value: 0, configurable: true });
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('different-location hint', () => {
  it('shows on the listing when the device is far from the chosen location', async () => {
    device(DELHI);
    renderHints('LISTING', KORAMANGALA);
    await settle();

    const hint = screen.getByTestId('different-location-hint');
    expect(hint.textContent).toContain('Your device is 1,7');
    expect(hint.textContent).toContain('km from Koramangala');
    expect(window.sessionStorage.getItem(HINT_SESSION_KEYS['different-location'])).toBe('1');
  });

  it('stays away when the device is near, or elsewhere than the listing', async () => {
    device(NEAR_KORAMANGALA);
    renderHints('LISTING', KORAMANGALA);
    await settle();
    expect(screen.queryByTestId('different-location-hint')).toBeNull();
    cleanup();

    const read = device(DELHI);
    renderHints('SEARCH', KORAMANGALA);
    await settle();
    expect(screen.queryByTestId('different-location-hint')).toBeNull();
    expect(read).not.toHaveBeenCalled();
  });

  it('never reads the device position without a granted permission', async () => {
    const read = device(DELHI, 'prompt');
    renderHints('LISTING', KORAMANGALA);
    await settle();
    expect(read).not.toHaveBeenCalled();
    expect(screen.queryByTestId('different-location-hint')).toBeNull();
  });

  it('shows once per session', async () => {
    device(DELHI);
    renderHints('LISTING', KORAMANGALA);
    await settle();
    expect(screen.getByTestId('different-location-hint')).toBeTruthy();
    cleanup();

    renderHints('LISTING', KORAMANGALA);
    await settle();
    expect(screen.queryByTestId('different-location-hint')).toBeNull();
  });

  it('primary action dismisses; secondary dismisses and opens the location sidebar', async () => {
    device(DELHI);
    const { opens, off } = collectOpens();
    renderHints('LISTING', KORAMANGALA);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'OKAY' }));
    expect(screen.queryByTestId('different-location-hint')).toBeNull();
    expect(opens).toHaveLength(0);
    cleanup();

    window.sessionStorage.clear();
    renderHints('LISTING', KORAMANGALA);
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'CHANGE LOCATION' }));
    off();
    expect(screen.queryByTestId('different-location-hint')).toBeNull();
    expect(opens).toEqual([{}]);
  });

  it('hides on any click on the page and on a scroll beyond 20 px, not before', async () => {
    device(DELHI);
    renderHints('LISTING', KORAMANGALA);
    await settle();
    act(() => document.body.click());
    expect(screen.queryByTestId('different-location-hint')).toBeNull();
    cleanup();

    window.sessionStorage.clear();
    renderHints('LISTING', KORAMANGALA);
    await settle();
    scrollTo(20);
    expect(screen.getByTestId('different-location-hint')).toBeTruthy();
    scrollTo(21);
    expect(screen.queryByTestId('different-location-hint')).toBeNull();
  });
});

describe('set-location tooltip', () => {
  it('appears after the delay where allowed and no location is set', () => {
    vi.useFakeTimers();
    renderHints('MENU', null, true);
    act(() => vi.advanceTimersByTime(999));
    expect(screen.queryByTestId('set-location-tooltip')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('set-location-tooltip').textContent).toContain(SET_LOCATION_TEXT);
  });

  it('never appears where the header does not allow it, or with a location', () => {
    vi.useFakeTimers();
    renderHints('LISTING', null, false);
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByTestId('set-location-tooltip')).toBeNull();
    cleanup();

    renderHints('MENU', KORAMANGALA, true);
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByTestId('set-location-tooltip')).toBeNull();
  });

  it('clears once a location exists', () => {
    vi.useFakeTimers();
    const { rerender } = renderHints('MENU', null, true);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByTestId('set-location-tooltip')).toBeTruthy();

    rerender(<LocationHints pageType="MENU" location={KORAMANGALA} tooltipAllowed />);

    expect(screen.queryByTestId('set-location-tooltip')).toBeNull();
  });

  it('OK hides it and opens the location sidebar 300 ms later', () => {
    vi.useFakeTimers();
    const { opens, off } = collectOpens();
    renderHints('MENU', null, true);
    act(() => vi.advanceTimersByTime(1000));

    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(screen.queryByTestId('set-location-tooltip')).toBeNull();
    act(() => vi.advanceTimersByTime(299));
    expect(opens).toHaveLength(0);
    act(() => vi.advanceTimersByTime(1));
    off();
    expect(opens).toEqual([{}]);
  });

  it('auto-hides after 4 s, hides on a click, and shows once per session', () => {
    vi.useFakeTimers();
    renderHints('MENU', null, true);
    act(() => vi.advanceTimersByTime(1000));
    act(() => vi.advanceTimersByTime(3999));
    expect(screen.getByTestId('set-location-tooltip')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('set-location-tooltip')).toBeNull();
    cleanup();

    // Same session, another menu page: not again.
    renderHints('MENU', null, true);
    act(() => vi.advanceTimersByTime(5000));
    expect(screen.queryByTestId('set-location-tooltip')).toBeNull();
    cleanup();

    window.sessionStorage.clear();
    renderHints('MENU', null, true);
    act(() => vi.advanceTimersByTime(1000));
    act(() => document.body.click());
    expect(screen.queryByTestId('set-location-tooltip')).toBeNull();
  });
});
