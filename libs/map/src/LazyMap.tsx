/**
 * The maps as pages use them: each fetched only when it is first shown (Leaflet stays out of
 * every page's first load), in a box of the map's own height from the first frame to the last, so
 * nothing around it moves while it loads or if it fails. If its code cannot load or it throws, the
 * box says so and the rest of the page goes on: a map must never take a page down.
 */
import { Component, lazy, Suspense, type ReactNode } from 'react';
import type { PinMapProps } from './PinMap';
import { PIN_MAP_HEIGHT, TRACKING_MAP_HEIGHT } from './sizes';
import type { TrackingMapProps } from './TrackingMap';
import './frame.css';

const PinMap = lazy(() => import('./PinMap'));
const TrackingMap = lazy(() => import('./TrackingMap'));

/** The pin map of the address form. */
export function LazyPinMap(props: PinMapProps) {
  return (
    <MapFrame height={PIN_MAP_HEIGHT} unavailable="The map is not available right now. Search for your area instead.">
      <PinMap {...props} />
    </MapFrame>
  );
}

/** The order tracking map. */
export function LazyTrackingMap(props: TrackingMapProps) {
  return (
    <MapFrame height={TRACKING_MAP_HEIGHT} unavailable="The map is not available right now.">
      <TrackingMap {...props} />
    </MapFrame>
  );
}

function MapFrame({ height, unavailable, children }: { height: number; unavailable: string; children: ReactNode }) {
  return (
    <MapBoundary fallback={<p className="map-placeholder map-note" style={{ height }}>{unavailable}</p>}>
      <Suspense fallback={<div className="map-placeholder" aria-busy="true" aria-label="Loading map" style={{ height }} />}>{children}</Suspense>
    </MapBoundary>
  );
}

class MapBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
