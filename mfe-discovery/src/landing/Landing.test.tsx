import { getUserLocation, on, setCurrentUser, type AddressRecommendation, type PlaceSuggestion, type User } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Landing } from './Landing';

vi.mock('@tiffin/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@tiffin/api-client')>()),
  edge: { placeAutocomplete: vi.fn(), addressRecommend: vi.fn() },
}));

const { edge } = await import('@tiffin/api-client');
const placeAutocomplete = vi.mocked(edge.placeAutocomplete);
const addressRecommend = vi.mocked(edge.addressRecommend);

function suggestion(id: string, main: string): PlaceSuggestion {
  return { place_id: id, description: `${main}, Bangalore`, structured_formatting: { main_text: main, secondary_text: 'Bangalore, Karnataka, India' }, terms: [], types: [] };
}

function place(id: string, area: string, lat: number, lng: number): AddressRecommendation {
  return { place_id: id, formatted_address: `${area}, Bangalore, Karnataka, India`, address_components: [], geometry: { location: { lat, lng } }, area, city: 'bangalore', main_text: area };
}

const KORAMANGALA = suggestion('bangalore-koramangala', 'Koramangala');
const KORA_LAYOUT = suggestion('bangalore-kora-layout', 'Kora Layout');

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const input = () => screen.getByTestId('location-input');

beforeEach(() => {
  placeAutocomplete.mockReset();
  addressRecommend.mockReset();
  addressRecommend.mockImplementation(async (query) =>
    'placeId' in query && query.placeId === 'bangalore-kora-layout' ? [place('bangalore-kora-layout', 'Kora Layout', 12.9, 77.6)] : [place('bangalore-koramangala', 'Koramangala', 12.9352, 77.6245)],
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.cookie = 'userLocation=; Max-Age=0; Path=/';
});

describe('Landing', () => {
  it("shows the headline, the subtitle and the spec's three highlights", () => {
    render(<Landing />);
    expect(screen.getByRole('heading', { level: 1, name: 'Hungry?' })).toBeTruthy();
    expect(screen.getByText('Order food from favourite restaurants near you.')).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['No minimum order', 'Live order tracking', 'Lightning-fast delivery']);
  });

  it('rotates the headline', () => {
    vi.useFakeTimers();
    render(<Landing />);
    act(() => vi.advanceTimersByTime(3000));
    expect(screen.getByTestId('landing-headline').textContent).toBe('Unexpected guests?');
  });

  it('asks the shell for the auth sidebar from Login and Sign up', () => {
    const modes: string[] = [];
    const off = on('auth:open', ({ mode }) => modes.push(mode));
    render(<Landing />);
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    off();
    expect(modes).toEqual(['login', 'signup']);
  });

  it('shows a signed-in customer their name, linking to the account, instead of Login and Sign up', () => {
    const user: User = {
      customer_id: '7',
      mobile: '9876543210',
      name: 'Asha Rao',
      email: 'asha@example.com',
      pendingEmail: '',
      emailVerified: true,
      optional_map: {},
      preferences: { sms: { orders: true, recommendations: true, reminders: true } },
    };
    setCurrentUser(user);
    try {
      render(<Landing />);
      expect(screen.getByTestId('landing-account').textContent).toBe('Asha');
      expect(screen.getByTestId('landing-account').getAttribute('href')).toBe('/my-account');
      expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Sign up' })).toBeNull();
      act(() => setCurrentUser(null));
      expect(screen.getByRole('button', { name: 'Login' })).toBeTruthy();
    } finally {
      setCurrentUser(null);
    }
  });

  it('asks for a location when FIND FOOD is pressed with nothing typed', () => {
    render(<Landing />);
    fireEvent.click(screen.getByTestId('find-food'));
    expect(screen.getByRole('alert').textContent).toBe('Please enter your delivery location to view restaurants.');
    expect(placeAutocomplete).not.toHaveBeenCalled();
  });

  it('suggests places after a pause in typing, and stores the chosen one', async () => {
    placeAutocomplete.mockResolvedValue([KORAMANGALA, KORA_LAYOUT]);
    const changes: unknown[] = [];
    const off = on('location:changed', (location) => changes.push(location));
    render(<Landing />);

    fireEvent.change(input(), { target: { value: 'k' } });
    fireEvent.change(input(), { target: { value: 'ko' } });
    fireEvent.change(input(), { target: { value: 'kora' } });
    const options = await screen.findAllByTestId('location-suggestion');

    expect(placeAutocomplete).toHaveBeenCalledTimes(1);
    expect(placeAutocomplete.mock.calls[0]![0]).toBe('kora');
    expect(options.map((o) => o.getAttribute('role'))).toEqual(['option', 'option']);
    expect(input().getAttribute('aria-expanded')).toBe('true');

    fireEvent.click(options[1]!);
    await waitFor(() => expect(changes).toHaveLength(1));
    off();
    expect(addressRecommend).toHaveBeenCalledWith({ placeId: 'bangalore-kora-layout' });
    expect(getUserLocation()).toEqual({ lat: 12.9, lng: 77.6, address: 'Kora Layout, Bangalore, Karnataka, India', area: 'Kora Layout', mainText: 'Kora Layout', city: 'bangalore' });
    expect(document.cookie).toContain('userLocation=');
  });

  it('moves through suggestions with Down/Up, closes them with Escape and chooses with Enter', async () => {
    placeAutocomplete.mockResolvedValue([KORAMANGALA, KORA_LAYOUT]);
    render(<Landing />);
    fireEvent.change(input(), { target: { value: 'kora' } });
    const options = await screen.findAllByTestId('location-suggestion');

    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    expect(input().getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    expect(options[1]!.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input(), { key: 'ArrowUp' });
    expect(input().getAttribute('aria-activedescendant')).toBe(options[0]!.id);

    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(screen.queryAllByTestId('location-suggestion')).toHaveLength(0);
    expect(input().getAttribute('aria-expanded')).toBe('false');

    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(addressRecommend).toHaveBeenCalledWith({ placeId: 'bangalore-kora-layout' }));
  });

  it('ignores a reply for text the visitor has since changed', async () => {
    const stale = deferred<PlaceSuggestion[]>();
    placeAutocomplete.mockImplementation(async (text) => (text === 'ko' ? stale.promise : [KORA_LAYOUT]));
    render(<Landing />);

    fireEvent.change(input(), { target: { value: 'ko' } });
    await waitFor(() => expect(placeAutocomplete).toHaveBeenCalledTimes(1));
    fireEvent.change(input(), { target: { value: 'kora l' } });
    await screen.findByText('Kora Layout');
    await act(async () => stale.resolve([KORAMANGALA]));

    expect(screen.getAllByTestId('location-suggestion').map((o) => o.textContent)).toEqual(['Kora LayoutBangalore, Karnataka, India']);
  });

  it('FIND FOOD uses the first suggestion', async () => {
    placeAutocomplete.mockResolvedValue([KORAMANGALA, KORA_LAYOUT]);
    render(<Landing />);
    fireEvent.change(input(), { target: { value: 'kora' } });
    await screen.findAllByTestId('location-suggestion');

    fireEvent.click(screen.getByTestId('find-food'));

    await waitFor(() => expect(getUserLocation()?.area).toBe('Koramangala'));
  });

  it('says so when a place cannot be resolved', async () => {
    placeAutocomplete.mockResolvedValue([KORAMANGALA]);
    addressRecommend.mockRejectedValue(new Error('Location not found'));
    render(<Landing />);
    fireEvent.change(input(), { target: { value: 'kora' } });
    fireEvent.click((await screen.findAllByTestId('location-suggestion'))[0]!);
    expect((await screen.findByRole('alert')).textContent).toBe('Oops! something went wrong. Please try entering your location again');
    expect(getUserLocation()).toBeNull();
  });

  it('Locate Me without a granted permission shows the spec message as a toast and reads nothing', async () => {
    const getCurrentPosition = vi.fn();
    vi.stubGlobal('navigator', { geolocation: { getCurrentPosition }, permissions: { query: async () => ({ state: 'prompt' }) } });
    const toasts: string[] = [];
    const off = on('toast:show', ({ text }) => toasts.push(text));
    render(<Landing />);

    fireEvent.click(screen.getByTestId('locate-me'));

    await waitFor(() => expect(toasts).toEqual(['Location services is disabled']));
    off();
    expect(getCurrentPosition).not.toHaveBeenCalled();
  });

  it('Locate Me with permission resolves the position by latlng and stores it', async () => {
    vi.stubGlobal('navigator', {
      geolocation: { getCurrentPosition: (ok: PositionCallback) => ok({ coords: { latitude: 12.94, longitude: 77.63 } } as GeolocationPosition) },
      permissions: { query: async () => ({ state: 'granted' }) },
    });
    render(<Landing />);

    fireEvent.click(screen.getByTestId('locate-me'));

    await waitFor(() => expect(getUserLocation()).toMatchObject({ lat: 12.94, lng: 77.63, area: 'Koramangala' }));
    expect(addressRecommend).toHaveBeenCalledWith({ lat: 12.94, lng: 77.63 });
  });
});
