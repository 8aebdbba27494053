/**
 * The order tracking map: the restaurant, the customer's address and, once there is one, the
 * delivery partner, with the partner's remaining route and a straight connector from the
 * restaurant to the address when asked for. A new snapshot moves what changed (the partner's
 * marker jumps to where the snapshot says) without rebuilding the map, and the view is fitted to
 * the points once, so a customer who panned is not pulled back on every update.
 * Loaded lazily (`LazyTrackingMap`); like the pin map, it draws its markers and lines whether or
 * not tiles load.
 */
import type { MapTiles } from '@tiffin/contract';
import L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { createBaseMap, dotIcon, pinIcon, removeMap, type MapPoint } from './base-map';
import { TRACKING_MAP_HEIGHT } from './sizes';

export interface TrackingMapProps {
  /** Where the food comes from. */
  restaurant: { point: MapPoint; name: string };
  /** Where it goes. */
  destination: MapPoint;
  /** The delivery partner, null until one is assigned. */
  rider: { point: MapPoint; name: string } | null;
  /** The partner's remaining route; nothing is drawn for fewer than two points. */
  route: MapPoint[];
  /** Draw a dashed straight line from the restaurant to the address. */
  connector: boolean;
  /** Where tiles come from; the site's own unless set. */
  tiles?: MapTiles;
}

const START_ZOOM = 14;
/** Room around the fitted points, so no marker sits on the edge. */
const FIT_PADDING: L.PointTuple = [32, 32];

const latLng = (p: MapPoint): L.LatLngTuple => [p.lat, p.lng];

interface Layers {
  map: L.Map;
  restaurant: L.Marker;
  destination: L.Marker;
  rider: L.Marker | null;
  route: L.Polyline;
  connector: L.Polyline;
  fitted: boolean;
}

/** Puts a line on the map through `points`, or takes it off for null. */
function showLine(map: L.Map, line: L.Polyline, points: L.LatLngTuple[] | null): void {
  if (!points) {
    line.remove();
    return;
  }
  line.setLatLngs(points);
  if (!map.hasLayer(line)) line.addTo(map);
}

export default function TrackingMap({ restaurant, destination, rider, route, connector, tiles }: TrackingMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const layers = useRef<Layers | null>(null);
  const [tilesFailed, setTilesFailed] = useState(false);
  const initial = useRef({ restaurant, destination, tiles });

  useEffect(() => {
    const start = initial.current;
    const map = createBaseMap(container.current!, { center: start.destination, zoom: START_ZOOM, tiles: start.tiles, onTilesFailed: () => setTilesFailed(true) });
    // Markers only show where things are: nothing on this map is clicked or focused.
    const still = { interactive: false, keyboard: false } as const;
    layers.current = {
      map,
      restaurant: L.marker(latLng(start.restaurant.point), { ...still, icon: dotIcon('map-marker map-marker--restaurant'), title: start.restaurant.name }).addTo(map),
      destination: L.marker(latLng(start.destination), { ...still, icon: pinIcon('map-marker map-marker--destination'), title: 'Your delivery location' }).addTo(map),
      rider: null,
      route: L.polyline([], { className: 'map-route', interactive: false }),
      connector: L.polyline([], { className: 'map-connector', dashArray: '6 8', interactive: false }),
      fitted: false,
    };
    return () => {
      removeMap(map);
      layers.current = null;
    };
  }, []);

  // Every snapshot: put each marker and line where it now is.
  const riderKey = rider ? `${rider.point.lat},${rider.point.lng},${rider.name}` : '';
  const routeKey = route.map((p) => `${p.lat},${p.lng}`).join(';');
  useEffect(() => {
    const drawn = layers.current;
    if (!drawn) return;
    const { map } = drawn;
    drawn.restaurant.setLatLng(latLng(restaurant.point));
    drawn.destination.setLatLng(latLng(destination));
    if (rider) {
      const title = `${rider.name}, your delivery partner`;
      if (!drawn.rider) {
        drawn.rider = L.marker(latLng(rider.point), { interactive: false, keyboard: false, icon: dotIcon('map-marker map-marker--rider'), title, zIndexOffset: 1000 }).addTo(map);
      } else {
        drawn.rider.setLatLng(latLng(rider.point));
        drawn.rider.getElement()?.setAttribute('title', title);
      }
    } else if (drawn.rider) {
      drawn.rider.remove();
      drawn.rider = null;
    }
    showLine(map, drawn.route, route.length >= 2 ? route.map(latLng) : null);
    showLine(map, drawn.connector, connector ? [latLng(restaurant.point), latLng(destination)] : null);
    if (!drawn.fitted) {
      drawn.fitted = true;
      const points = [restaurant.point, destination, ...(rider ? [rider.point] : []), ...route].map(latLng);
      map.fitBounds(L.latLngBounds(points), { padding: FIT_PADDING, maxZoom: 16, animate: false });
    }
  }, [restaurant.point.lat, restaurant.point.lng, destination.lat, destination.lng, riderKey, routeKey, connector]);

  return (
    <div className="map-track" data-testid="tracking-map" style={{ height: TRACKING_MAP_HEIGHT }}>
      <div ref={container} className="map-canvas" style={{ height: TRACKING_MAP_HEIGHT }} role="img" aria-label={rider ? `Map: ${rider.name} on the way from ${restaurant.name}` : `Map: from ${restaurant.name} to your address`} />
      {tilesFailed ? <p className="map-note map-note--over">The map could not load. The markers still show where your order is.</p> : null}
    </div>
  );
}
