/**
 * What every map here starts from: a Leaflet map on the given tiles (the site's own by default),
 * where a tile that cannot load shows nothing and is reported once, and the marker shapes the maps
 * share. Only the lazily loaded map components import this, so Leaflet stays out of every page's
 * first load.
 */
import { MAP_TILES, type MapTiles } from '@tiffin/contract';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { BLANK_TILE } from './tiles';
import './frame.css';
import './map.css';

export interface MapPoint {
  lat: number;
  lng: number;
}

export interface BaseMapOptions {
  center: MapPoint;
  zoom: number;
  /** Where tiles come from; the site's own unless a caller (a test, an offline run) says otherwise. */
  tiles?: MapTiles;
  /** Called once, the first time a tile fails (no network, a blocked tile server). */
  onTilesFailed?: () => void;
}

/**
 * A map in `container`. The page scrolls over it (a wheel over the map does not zoom it), and it
 * must keep working without tiles: markers and lines never depend on them.
 */
export function createBaseMap(container: HTMLElement, { center, zoom, tiles = MAP_TILES, onTilesFailed }: BaseMapOptions): L.Map {
  const map = L.map(container, { center: [center.lat, center.lng], zoom, scrollWheelZoom: false });
  let reported = false;
  L.tileLayer(tiles.url, { attribution: tiles.attribution, maxZoom: tiles.maxZoom, errorTileUrl: BLANK_TILE })
    .on('tileerror', () => {
      if (reported) return;
      reported = true;
      onTilesFailed?.();
    })
    .addTo(map);
  return map;
}

/** Removes a map, first stopping any pan: Leaflet's animation frame would otherwise run on a removed map. */
export function removeMap(map: L.Map): void {
  map.stop();
  map.remove();
}

// Inline SVG markers: Leaflet's default marker images do not survive bundling, and these need none.
// Each takes its colour from its class (currentColor), set in map.css.
const PIN_SVG =
  '<svg viewBox="0 0 24 32" width="30" height="40" aria-hidden="true"><path d="M12 0C5.4 0 0 5.3 0 11.9 0 20.8 12 32 12 32s12-11.2 12-20.1C24 5.3 18.6 0 12 0z" fill="currentColor"/><circle cx="12" cy="12" r="4.5" fill="#fff"/></svg>';
const DOT_SVG =
  '<svg viewBox="0 0 32 32" width="32" height="32" aria-hidden="true"><circle cx="16" cy="16" r="14" fill="currentColor" stroke="#fff" stroke-width="3"/><circle cx="16" cy="16" r="5" fill="#fff"/></svg>';

/** A pin whose point is the spot: a delivery address. */
export function pinIcon(className: string): L.DivIcon {
  return L.divIcon({ className, html: PIN_SVG, iconSize: [30, 40], iconAnchor: [15, 40] });
}

/** A round marker centred on the spot: a restaurant, a rider. */
export function dotIcon(className: string): L.DivIcon {
  return L.divIcon({ className, html: DOT_SVG, iconSize: [32, 32], iconAnchor: [16, 16] });
}
