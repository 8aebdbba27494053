import { getUserLocation, on, resetCurrentUserForTests, setCurrentUser, type Address, type AddressRecommendation, type PlaceSuggestion, type User, type UserLocation } from '@tiffin/contract';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import LocationSidebar from './LocationSidebar';

vi.mock('@tiffin/api-client', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@tiffin/api-client')>()),
  edge: { placeAutocomplete: vi.fn(), addressRecommend: vi.fn(), addresses: vi.fn() },
}));

const { edge } = await import('@tiffin/api-client');
const placeAutocomplete = vi.mocked(edge.placeAutocomplete);
const addressRecommend = vi.mocked(edge.addressRecommend);
const addresses = vi.mocked(edge.addresses);

const KORAMANGALA: PlaceSuggestion = {
  place_id: 'bangalore-koramangala',
  description: 'Koramangala, Bangalore',
  structured_formatting: { main_text: 'Koramangala', secondary_text: 'Bangalore, Karnataka, India' },
  terms: [],
  types: [],
};

function place(area: string, lat: number, lng: number): AddressRecommendation {
  return { place_id: `bangalore-${area.toLowerCase()}`, formatted_address: `${area}, Bangalore, Karnataka, India`, address_components: [], geometry: { location: { lat, lng } }, area, city: 'bangalore', main_text: area };
}

const asha: User = {
  customer_id: '17',
  mobile: '9876543210',
  name: 'Asha Rao',
  email: '',
  pendingEmail: '',
  emailVerified: false,
  optional_map: {},
  preferences: { sms: { orders: true, recommendations: true, reminders: false } },
};

function savedAddress(id: string, annotation: Address['annotation'], area: string, deliverable = true): Address {
  return {
    id,
    annotation,
    address: `Flat 1, ${area}, Bangalore`,
    area,
    flat_no: 'Flat 1',
    landmark: '',
    lat: 12.97,
    lng: 77.64,
    mobile: '9876543210',
    instructions: '',
    city: 'bangalore',
    delivery_valid: deliverable ? 1 : 0,
  };
}

/** The sidebar as the shell mounts it: the shell owns `open`; a button stands for the header's opener. */
function Harness({ onClose = () => {} }: { onClose?: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open location
      </button>
      <LocationSidebar
        open={open}
        onClose={() => {
          onClose();
          setOpen(false);
        }}
      />
    </>
  );
}

function openSidebar() {
  const opener = screen.getByRole('button', { name: 'Open location' });
  opener.focus();
  fireEvent.click(opener);
  return screen.getByRole('dialog', { name: 'Choose a delivery location' });
}

function grantPosition(lat: number, lng: number) {
  vi.stubGlobal('navigator', {
    geolocation: { getCurrentPosition: (ok: PositionCallback) => ok({ coords: { latitude: lat, longitude: lng } } as GeolocationPosition) },
    permissions: { query: async () => ({ state: 'granted' }) },
  });
}

beforeEach(() => {
  resetCurrentUserForTests();
  placeAutocomplete.mockReset();
  addressRecommend.mockReset();
  addresses.mockReset();
  addressRecommend.mockImplementation(async (query) => ('placeId' in query ? [place('Koramangala', 12.9352, 77.6245)] : [place('Indiranagar', 12.9784, 77.6408)]));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  document.cookie = 'userLocation=; Max-Age=0; Path=/';
});

describe('LocationSidebar', () => {
  it('renders nothing while closed', () => {
    render(<LocationSidebar open={false} onClose={() => {}} />);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('focuses the search on opening and gives focus back to the opener on closing', () => {
    render(<Harness />);
    const dialog = openSidebar();
    expect(document.activeElement).toBe(within(dialog).getByTestId('location-input'));

    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));

    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open location' }));
  });

  it('sets the typed place as the location and closes', async () => {
    placeAutocomplete.mockResolvedValue([KORAMANGALA]);
    const changes: Array<UserLocation | null> = [];
    const off = on('location:changed', (location) => changes.push(location));
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const dialog = openSidebar();

    fireEvent.change(within(dialog).getByTestId('location-input'), { target: { value: 'kora' } });
    fireEvent.click(await within(dialog).findByRole('option', { name: /Koramangala/ }));

    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    off();
    expect(addressRecommend).toHaveBeenCalledWith({ placeId: 'bangalore-koramangala' });
    expect(getUserLocation()).toMatchObject({ lat: 12.9352, lng: 77.6245, area: 'Koramangala', mainText: 'Koramangala' });
    expect(changes).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Escape closes an open suggestion list first, then the sidebar', async () => {
    placeAutocomplete.mockResolvedValue([KORAMANGALA]);
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const dialog = openSidebar();
    const input = within(dialog).getByTestId('location-input');
    fireEvent.change(input, { target: { value: 'kora' } });
    await within(dialog).findByRole('option', { name: /Koramangala/ });

    fireEvent.keyDown(input, { key: 'Escape' });
    expect(within(dialog).queryByRole('option')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.keyDown(input, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps Tab inside the sidebar', () => {
    render(<Harness />);
    const dialog = openSidebar();
    const close = within(dialog).getByRole('button', { name: 'Close' });
    const gps = within(dialog).getByRole('button', { name: /Get current location/ });
    gps.focus();
    fireEvent.keyDown(gps, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(gps);
  });

  it('uses the device position when permission is granted: the fix, named by its locality', async () => {
    grantPosition(12.9791, 77.6402);
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const dialog = openSidebar();

    fireEvent.click(within(dialog).getByRole('button', { name: /Get current location/ }));

    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(addressRecommend).toHaveBeenCalledWith({ lat: 12.9791, lng: 77.6402 });
    expect(getUserLocation()).toMatchObject({ lat: 12.9791, lng: 77.6402, area: 'Indiranagar' });
  });

  it('never asks for permission: without it the spec message shows in the sidebar, which stays open', async () => {
    const getCurrentPosition = vi.fn();
    vi.stubGlobal('navigator', { geolocation: { getCurrentPosition }, permissions: { query: async () => ({ state: 'prompt' }) } });
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const dialog = openSidebar();

    fireEvent.click(within(dialog).getByRole('button', { name: /Get current location/ }));

    expect((await within(dialog).findByRole('alert')).textContent).toBe('Location services is disabled');
    expect(getCurrentPosition).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(getUserLocation()).toBeNull();
  });

  it('says so when the browser has no geolocation, or the fix fails', async () => {
    vi.stubGlobal('navigator', {});
    render(<Harness />);
    let dialog = openSidebar();
    fireEvent.click(within(dialog).getByRole('button', { name: /Get current location/ }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Geolocation is not supported by your browser');
    cleanup();

    vi.stubGlobal('navigator', {
      geolocation: { getCurrentPosition: (_ok: PositionCallback, fail: PositionErrorCallback) => fail({ code: 3, message: 'timeout' } as GeolocationPositionError) },
      permissions: { query: async () => ({ state: 'granted' }) },
    });
    render(<Harness />);
    dialog = openSidebar();
    fireEvent.click(within(dialog).getByRole('button', { name: /Get current location/ }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('We are unable to fetch your location currently.');
  });

  it('shows no saved addresses to a visitor and does not ask for them', () => {
    render(<Harness />);
    const dialog = openSidebar();
    expect(within(dialog).queryByRole('region', { name: 'Saved addresses' })).toBeNull();
    expect(addresses).not.toHaveBeenCalled();
  });

  it("lists a signed-in customer's saved addresses; picking one sets it with its id and annotation", async () => {
    setCurrentUser(asha);
    addresses.mockResolvedValue({ addresses: [savedAddress('a2', 'WORK', 'Indiranagar'), savedAddress('a1', 'HOME', 'Koramangala'), savedAddress('a3', 'OTHER', 'Far away', false)] });
    const onClose = vi.fn();
    render(<Harness onClose={onClose} />);
    const dialog = openSidebar();

    const saved = await within(dialog).findAllByTestId('saved-address');
    expect(saved.map((b) => b.querySelector('.disc-location-sidebar__annotation')?.textContent)).toEqual(['Work', 'Home', 'Other']);
    // Only an address some restaurant delivers to (delivery_valid 1) can be chosen.
    expect((saved[2] as HTMLButtonElement).disabled).toBe(true);
    expect(saved[2]!.textContent).toContain("Sorry! We don't serve at your location currently.");

    fireEvent.click(saved[1]!);

    expect(onClose).toHaveBeenCalledTimes(1);
    expect(getUserLocation()).toMatchObject({ id: 'a1', annotation: 'HOME', lat: 12.97, lng: 77.64, area: 'Koramangala', address: 'Flat 1, Koramangala, Bangalore' });
  });

  it('offers Retry when the saved addresses cannot be loaded', async () => {
    setCurrentUser(asha);
    addresses.mockRejectedValueOnce(new Error('down')).mockResolvedValue({ addresses: [savedAddress('a1', 'HOME', 'Koramangala')] });
    render(<Harness />);
    const dialog = openSidebar();

    const alert = await within(dialog).findByRole('alert');
    expect(alert.textContent).toContain('Oops! Something went wrong.');
    await act(async () => fireEvent.click(within(alert).getByRole('button', { name: 'Retry' })));

    expect(await within(dialog).findAllByTestId('saved-address')).toHaveLength(1);
  });
});
