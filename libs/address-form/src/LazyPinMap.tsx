/**
 * The pin map, fetched only when an address form opens (Leaflet stays out of every remote's
 * first load). If its code cannot load or it fails, the form shows a note and the
 * search and "Use current location" still work: the map must never take the form down.
 */
import { Component, lazy, Suspense, type ReactNode } from 'react';
import type { PinMapProps } from './PinMap';

const PinMap = lazy(() => import('./PinMap'));
/** Holds the map's place while it loads, so the form does not jump. */
const MAP_PLACEHOLDER = { height: 220, borderRadius: 'var(--ds-radius-m)', background: 'var(--ds-color-surface-muted)' } as const;

export function LazyPinMap(props: PinMapProps) {
  return (
    <MapBoundary>
      <Suspense fallback={<div aria-busy="true" aria-label="Loading map" style={MAP_PLACEHOLDER} />}>
        <PinMap {...props} />
      </Suspense>
    </MapBoundary>
  );
}

class MapBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (this.state.failed) return <p className="addr-muted">The map is not available right now. Search for your area instead.</p>;
    return this.props.children;
  }
}
