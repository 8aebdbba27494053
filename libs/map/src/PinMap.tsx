/**
 * The address map: a draggable pin. Dropping the pin, clicking the map, or the "Move pin" buttons
 * (the keyboard way) report the new point; the form resolves it and moves the pin where the picked
 * place is. Loaded lazily (`LazyPinMap`), so Leaflet is not in any page's first load. It must keep
 * working when tiles cannot load (no network, a blocked tile server): the pin, the buttons and the
 * form never depend on tiles.
 * Leaflet is used directly (one map, one marker): react-leaflet 5 fits React 19 but carries the
 * non-OSI Hippocratic licence, and this small component needs none of its layer tree.
 */
import L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import type { MapTiles } from '@tiffin/contract';
import { createBaseMap, pinIcon, removeMap, type MapPoint } from './base-map';
import { PIN_MAP_HEIGHT } from './sizes';

export interface PinMapProps {
  /** Where the pin is. */
  pin: MapPoint;
  /** Street level for a known place, city level for a mere starting point. */
  zoom: number;
  /** The customer moved the pin to this point. */
  onMove: (point: MapPoint) => void;
  /** Where tiles come from; the site's own unless set. */
  tiles?: MapTiles;
}

/** A pin that moved (a search pick, a drop) is shown at least this close. */
const STREET_ZOOM = 15;
/** How far one "Move pin" press moves it, in screen pixels (so it suits every zoom). */
const NUDGE_PX = 40;

const NUDGES = [
  { label: 'north', symbol: '↑', dx: 0, dy: -NUDGE_PX },
  { label: 'west', symbol: '←', dx: -NUDGE_PX, dy: 0 },
  { label: 'east', symbol: '→', dx: NUDGE_PX, dy: 0 },
  { label: 'south', symbol: '↓', dx: 0, dy: NUDGE_PX },
] as const;

export default function PinMap({ pin, zoom, onMove, tiles }: PinMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);
  const marker = useRef<L.Marker | null>(null);
  const [tilesFailed, setTilesFailed] = useState(false);
  // Leaflet's handlers are bound once; they call whatever onMove the form passes now.
  const onMoveRef = useRef(onMove);
  onMoveRef.current = onMove;
  const initial = useRef({ pin, zoom, tiles });

  useEffect(() => {
    const start = initial.current;
    const created = createBaseMap(container.current!, { center: start.pin, zoom: start.zoom, tiles: start.tiles, onTilesFailed: () => setTilesFailed(true) });
    const pinMarker = L.marker([start.pin.lat, start.pin.lng], {
      icon: pinIcon('map-pin__marker'),
      draggable: true,
      autoPan: true,
      title: 'Delivery pin: drag to your door',
      alt: 'Delivery pin',
    }).addTo(created);
    pinMarker.on('dragend', () => {
      const { lat, lng } = pinMarker.getLatLng();
      onMoveRef.current({ lat, lng });
    });
    // A click (or tap) on the map drops the pin there.
    created.on('click', (event: L.LeafletMouseEvent) => onMoveRef.current({ lat: event.latlng.lat, lng: event.latlng.lng }));
    marker.current = pinMarker;
    setMap(created);
    return () => {
      removeMap(created);
      marker.current = null;
      setMap(null);
    };
  }, []);

  // The pin moved from outside the map (a search pick, a nudge, a failed drop put back): show it
  // there, at street level. A drag already put the marker where it is.
  useEffect(() => {
    const pinMarker = marker.current;
    if (!map || !pinMarker) return;
    const at = pinMarker.getLatLng();
    if (at.lat === pin.lat && at.lng === pin.lng) return;
    pinMarker.setLatLng([pin.lat, pin.lng]);
    // No animation: the form may close (and remove the map) at any moment.
    map.setView([pin.lat, pin.lng], Math.max(map.getZoom(), STREET_ZOOM), { animate: false });
  }, [map, pin.lat, pin.lng]);

  const nudge = (dx: number, dy: number) => {
    if (!map) return;
    const { lat, lng } = map.containerPointToLatLng(map.latLngToContainerPoint([pin.lat, pin.lng]).add([dx, dy]));
    onMove({ lat, lng });
  };

  return (
    <div className="map-pin" data-testid="address-map">
      <div ref={container} className="map-canvas" style={{ height: PIN_MAP_HEIGHT }} />
      <div className="map-pin__nudges" role="group" aria-label="Move pin">
        {NUDGES.map((n) => (
          <button key={n.label} type="button" className="map-pin__nudge" aria-label={`Move pin ${n.label}`} disabled={!map} onClick={() => nudge(n.dx, n.dy)}>
            {n.symbol}
          </button>
        ))}
      </div>
      {tilesFailed ? <p className="map-note">The map could not load. You can still move the pin.</p> : null}
    </div>
  );
}
