import { MAP_TILES } from '@tiffin/contract';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyPinMap, LazyTrackingMap } from './LazyMap';
import { OFFLINE_TILES } from './tiles';
import TrackingMap, { type TrackingMapProps } from './TrackingMap';

// These run real Leaflet in jsdom on OFFLINE_TILES: every tile is the blank data image, so the
// tests draw the whole map without asking any tile server.

afterEach(() => cleanup());

const restaurant = { point: { lat: 12.9352, lng: 77.6245 }, name: 'Meghana Foods' };
const destination = { lat: 12.9279, lng: 77.6271 };
const props = (overrides: Partial<TrackingMapProps> = {}): TrackingMapProps => ({
  restaurant,
  destination,
  rider: { point: { lat: 12.93, lng: 77.62 }, name: 'Ravi' },
  route: [{ lat: 12.93, lng: 77.62 }, restaurant.point, destination],
  connector: false,
  tiles: OFFLINE_TILES,
  ...overrides,
});

function marker(map: HTMLElement, title: string): HTMLElement | null {
  return map.querySelector(`.leaflet-marker-icon[title="${title}"]`);
}

/** Where Leaflet put a marker on the map pane (a CSS transform, or left/top without one). */
function placeOf(element: HTMLElement): string {
  return element.style.transform || `${element.style.left},${element.style.top}`;
}

function tileSources(map: HTMLElement): string[] {
  return Array.from(map.querySelectorAll('img.leaflet-tile'), (img) => img.getAttribute('src') ?? '');
}

describe('tracking map', () => {
  it('marks the restaurant, the address and the rider, and draws the route', () => {
    render(<TrackingMap {...props()} />);
    const map = screen.getByTestId('tracking-map');

    expect(marker(map, 'Meghana Foods')).toBeTruthy();
    expect(marker(map, 'Your delivery location')).toBeTruthy();
    expect(marker(map, 'Ravi, your delivery partner')).toBeTruthy();
    expect(map.querySelectorAll('path.map-route')).toHaveLength(1);
    expect(map.querySelector('path.map-connector')).toBeNull();
    expect(screen.getByRole('img', { name: 'Map: Ravi on the way from Meghana Foods' })).toBeTruthy();
  });

  it('moves the rider when a new snapshot comes, leaving the rest where it was', () => {
    const { rerender } = render(<TrackingMap {...props()} />);
    const map = screen.getByTestId('tracking-map');
    const rider = marker(map, 'Ravi, your delivery partner')!;
    const before = { rider: placeOf(rider), restaurant: placeOf(marker(map, 'Meghana Foods')!) };

    rerender(<TrackingMap {...props({ rider: { point: { lat: 12.934, lng: 77.623 }, name: 'Ravi' } })} />);

    expect(marker(map, 'Ravi, your delivery partner')).toBe(rider);
    expect(placeOf(rider)).not.toBe(before.rider);
    expect(placeOf(marker(map, 'Meghana Foods')!)).toBe(before.restaurant);
  });

  it('adds the rider once assigned and draws no route of fewer than two points; the connector when asked', () => {
    const { rerender } = render(<TrackingMap {...props({ rider: null, route: [], connector: true })} />);
    const map = screen.getByTestId('tracking-map');
    expect(map.querySelectorAll('.leaflet-marker-icon')).toHaveLength(2);
    expect(map.querySelector('path.map-connector')).toBeTruthy();
    expect(map.querySelector('path.map-route')).toBeNull();

    rerender(<TrackingMap {...props({ route: [{ lat: 12.93, lng: 77.62 }], connector: true })} />);
    expect(marker(map, 'Ravi, your delivery partner')).toBeTruthy();
    expect(map.querySelector('path.map-route')).toBeNull();
  });

  it("draws the site's tiles unless told otherwise, and OFFLINE_TILES without any server", () => {
    render(<TrackingMap {...props({ tiles: undefined })} />);
    const [first] = tileSources(screen.getByTestId('tracking-map'));
    expect(first?.startsWith(MAP_TILES.url.slice(0, MAP_TILES.url.indexOf('{')))).toBe(true);
    cleanup();

    render(<TrackingMap {...props()} />);
    const offline = tileSources(screen.getByTestId('tracking-map'));
    expect(offline.length).toBeGreaterThan(0);
    expect(offline.every((src) => src.startsWith('data:'))).toBe(true);
  });

  it('holds its height from the placeholder on, so the page does not move when it loads', async () => {
    const { container } = render(<LazyTrackingMap {...props()} />);
    expect(screen.getByLabelText('Loading map').style.height).toBe('280px');
    const map = await screen.findByTestId('tracking-map');
    expect(map.style.height).toBe('280px');
    expect(container.querySelectorAll('[style*="height: 280px"]').length).toBeGreaterThan(0);
  });
});

describe('pin map', () => {
  it('reports a nudge as the point the pin moved to', async () => {
    const onMove = vi.fn();
    render(<LazyPinMap pin={{ lat: 12.9352, lng: 77.6245 }} zoom={16} onMove={onMove} tiles={OFFLINE_TILES} />);
    const map = await screen.findByTestId('address-map');
    expect(map.querySelector('.leaflet-marker-icon[title="Delivery pin: drag to your door"]')).toBeTruthy();
    expect(tileSources(map).every((src) => src.startsWith('data:'))).toBe(true);

    const north = screen.getByRole('button', { name: 'Move pin north' }) as HTMLButtonElement;
    await waitFor(() => expect(north.disabled).toBe(false));
    fireEvent.click(north);
    const [point] = onMove.mock.calls[0]!;
    expect(point.lat).toBeGreaterThan(12.9352);
    expect(point.lng).toBeCloseTo(77.6245, 4);
  });
});
