/**
 * A stand-in for the pin map in page tests that are about the form, not the map. It shows where
 * the pin is and "drops" it at a fixed point, firing the same `onMove` a real drag, click or nudge
 * fires. Use it with `vi.mock('@tiffin/map/pin-map', () => import('@tiffin/map/testing/pin-map'))`.
 */
import type { PinMapProps } from '../PinMap';

/** Where "Drop pin" puts the pin. */
export const DROPPED_PIN = { lat: 12.93611, lng: 77.62622 } as const;

export default function FakePinMap({ pin, zoom, onMove }: PinMapProps) {
  return (
    <div data-testid="address-map" data-pin={`${pin.lat},${pin.lng}`} data-zoom={zoom}>
      <button type="button" onClick={() => onMove({ ...DROPPED_PIN })}>
        Drop pin
      </button>
    </div>
  );
}
