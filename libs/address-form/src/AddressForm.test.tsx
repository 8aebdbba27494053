import { fixtures, installFakeEdge, reply } from '@tiffin/api-client/testing';
import type { Address } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AddressForm } from './AddressForm';

// The form, not the map, is under test: the stand-in shows where the pin is and drops it at a
// fixed point (the map's own tests are in @tiffin/map).
vi.mock('@tiffin/map/pin-map', () => import('@tiffin/map/testing/pin-map'));

const recommendation = {
  place_id: 'p1',
  formatted_address: '12 1st Cross, Koramangala, Bangalore',
  address_components: [],
  geometry: { location: { lat: 12.9352, lng: 77.6245 } },
  area: 'Koramangala',
  city: 'bangalore',
  main_text: 'Koramangala',
};

function bodyOf(init: RequestInit | undefined): Record<string, unknown> {
  return JSON.parse((init?.body as string) ?? '{}') as Record<string, unknown>;
}

function openForm(address: Address | null = null) {
  const onSaved = vi.fn();
  render(<AddressForm address={address} onSaved={onSaved} />);
  return { onSaved, form: screen.getByRole('button', { name: /SAVE ADDRESS/ }).closest('form')! };
}

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]!.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

beforeEach(() => clearCookies());

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('address form', () => {
  it('asks for a location, then a flat number, and saves the searched place with its annotation', async () => {
    let saved: Record<string, unknown> | null = null;
    const created = fixtures.address('a1', 'WORK');
    installFakeEdge({
      '/api/misc/place-autocomplete': [{ place_id: 'p1', description: 'Koramangala', structured_formatting: { main_text: 'Koramangala', secondary_text: 'Bangalore' }, terms: [], types: [] }],
      '/api/misc/address-recommend': [recommendation],
      '/api/address': (_url: URL, init?: RequestInit) => ((saved = bodyOf(init)), { address: created, addresses: [created] }),
    });
    const { form, onSaved } = openForm();

    fireEvent.click(within(form).getByRole('button', { name: /SAVE ADDRESS/ }));
    expect(within(form).getByRole('alert').textContent).toBe('Please select a location.');
    fireEvent.change(form.querySelector('input[name="place"]')!, { target: { value: 'kora' } });
    fireEvent.click(await within(form).findByRole('button', { name: /Koramangala/ }));
    expect((await within(form).findByTestId('picked-place')).textContent).toBe('12 1st Cross, Koramangala, Bangalore');
    fireEvent.click(within(form).getByRole('button', { name: /SAVE ADDRESS/ }));
    expect(within(form).getByRole('alert').textContent).toBe('Please enter your flat number.');

    fireEvent.change(form.querySelector('input[name="flat_no"]')!, { target: { value: 'Flat 7' } });
    fireEvent.change(form.querySelector('input[name="landmark"]')!, { target: { value: 'Near Forum' } });
    fireEvent.click(within(form).getByRole('radio', { name: 'Work' }));
    fireEvent.click(within(form).getByRole('button', { name: /SAVE ADDRESS/ }));

    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledWith([created], created));
    expect(saved).toEqual({
      annotation: 'WORK',
      address: '12 1st Cross, Koramangala, Bangalore',
      area: 'Koramangala',
      city: 'bangalore',
      lat: 12.9352,
      lng: 77.6245,
      flat_no: 'Flat 7',
      landmark: 'Near Forum',
      instructions: '',
      _csrf: 'test-csrf',
    });
  });

  it("keeps the form and shows the edge's message when the save is refused", async () => {
    installFakeEdge({ '/api/address': reply(400, 1, 'Please enter your address.') });
    const { form, onSaved } = openForm(fixtures.address('h1', 'HOME'));
    fireEvent.click(within(form).getByRole('button', { name: /SAVE ADDRESS/ }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Please enter your address.');
    expect(onSaved).not.toHaveBeenCalled();
    expect((form.querySelector('input[name="flat_no"]') as HTMLInputElement).value).toBe('Flat h1');
  });

  it('starts the map at the city centre, the delivery location, or the address being edited', async () => {
    installFakeEdge({});
    openForm();
    let map = await screen.findByTestId('address-map');
    expect([map.getAttribute('data-pin'), map.getAttribute('data-zoom')]).toEqual(['12.9716,77.5946', '12']);
    cleanup();

    document.cookie = `userLocation=${encodeURIComponent(JSON.stringify({ lat: 12.97, lng: 77.64, address: 'I', area: 'I', mainText: 'I', city: 'bangalore' }))}; Path=/`;
    openForm();
    map = await screen.findByTestId('address-map');
    expect([map.getAttribute('data-pin'), map.getAttribute('data-zoom')]).toEqual(['12.97,77.64', '16']);
    cleanup();

    openForm(fixtures.address('h1', 'HOME', { lat: 12.91, lng: 77.64 }));
    expect((await screen.findByTestId('address-map')).getAttribute('data-pin')).toBe('12.91,77.64');
  });

  it('drops the pin: the nearest locality names the place and the exact pinned point is saved', async () => {
    const asked: string[] = [];
    let saved: Record<string, unknown> | null = null;
    const created = fixtures.address('a1', 'HOME');
    installFakeEdge({
      '/api/misc/address-recommend': (url: URL) => (asked.push(url.search), [recommendation]),
      '/api/address': (_url: URL, init?: RequestInit) => ((saved = bodyOf(init)), { address: created, addresses: [created] }),
    });
    const { form, onSaved } = openForm();

    fireEvent.click(await within(form).findByRole('button', { name: 'Drop pin' }));
    expect((await within(form).findByTestId('picked-place')).textContent).toBe('12 1st Cross, Koramangala, Bangalore');
    expect(asked).toEqual([`?latlng=${encodeURIComponent('12.93611,77.62622')}`]);
    expect(within(form).getByTestId('address-map').getAttribute('data-pin')).toBe('12.93611,77.62622');

    fireEvent.change(form.querySelector('input[name="flat_no"]')!, { target: { value: 'Flat 7' } });
    fireEvent.click(within(form).getByRole('button', { name: /SAVE ADDRESS/ }));
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(saved).toMatchObject({ address: '12 1st Cross, Koramangala, Bangalore', area: 'Koramangala', city: 'bangalore', lat: 12.93611, lng: 77.62622 });
  });

  it('says so when a dropped pin finds no place, and puts the pin back on the picked place', async () => {
    installFakeEdge({ '/api/misc/address-recommend': reply(404, 404, 'Location not found') });
    const { form } = openForm(fixtures.address('h1', 'HOME'));

    fireEvent.click(await within(form).findByRole('button', { name: 'Drop pin' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Location not found');
    expect(within(form).getByTestId('address-map').getAttribute('data-pin')).toBe('12.9352,77.6245');
    expect(within(form).getByTestId('picked-place').textContent).toBe('12 1st Cross, Koramangala');
  });

  it('uses the current location only with permission granted, high accuracy and 5000 ms', async () => {
    installFakeEdge({ '/api/misc/address-recommend': [recommendation] });
    let permission = 'prompt';
    const getCurrentPosition = vi.fn((ok: PositionCallback, _fail?: PositionErrorCallback, _options?: PositionOptions) => ok({ coords: { latitude: 12.94, longitude: 77.63 } } as GeolocationPosition));
    vi.stubGlobal('navigator', { geolocation: { getCurrentPosition }, permissions: { query: async () => ({ state: permission }) } });
    const { form } = openForm();

    fireEvent.click(within(form).getByRole('button', { name: 'Use current location' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Location services is disabled');
    expect(getCurrentPosition).not.toHaveBeenCalled();

    permission = 'granted';
    fireEvent.click(within(form).getByRole('button', { name: 'Use current location' }));
    expect((await within(form).findByTestId('picked-place')).textContent).toBe('12 1st Cross, Koramangala, Bangalore');
    expect(getCurrentPosition.mock.calls[0]![2]).toMatchObject({ enableHighAccuracy: true, timeout: 5000 });
  });
});
