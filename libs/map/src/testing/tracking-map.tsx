/**
 * A stand-in for the tracking map in page tests that are about the page, not the map: it writes
 * what the map was asked to draw into data attributes (`data-rider` is `lat,lng` or empty,
 * `data-route` the number of route points). Use it with
 * `vi.mock('@tiffin/map/tracking-map', () => import('@tiffin/map/testing/tracking-map'))`.
 */
import type { TrackingMapProps } from '../TrackingMap';

export default function FakeTrackingMap({ restaurant, destination, rider, route, connector }: TrackingMapProps) {
  return (
    <div
      data-testid="tracking-map"
      data-restaurant={`${restaurant.point.lat},${restaurant.point.lng}`}
      data-destination={`${destination.lat},${destination.lng}`}
      data-rider={rider ? `${rider.point.lat},${rider.point.lng}` : ''}
      data-route={route.length}
      data-connector={connector}
    />
  );
}
