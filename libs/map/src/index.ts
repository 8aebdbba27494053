/**
 * @tiffin/map — every map on the site, and the only package that imports Leaflet.
 *
 * - `LazyPinMap`: the address form's draggable pin (used by @tiffin/address-form)
 * - `LazyTrackingMap`: the order tracking map (restaurant, address, delivery partner, route)
 * - `OFFLINE_TILES`, `BLANK_TILE`: tiles that need no server, for tests and runs without a network
 * - `testing/pin-map`, `testing/tracking-map`: stand-ins for page tests that are not about the map
 *
 * Every map draws the tiles @tiffin/contract names (`MAP_TILES`) unless its caller passes
 * `tiles`. Nothing exported here loads Leaflet: each map's code (`./PinMap`, `./TrackingMap`, and
 * `./base-map` under both) is fetched the first time that map is shown. Shared as a Module
 * Federation singleton, so Leaflet and its styles come to a page once.
 */
export { LazyPinMap, LazyTrackingMap } from './LazyMap';
export { PIN_MAP_HEIGHT, TRACKING_MAP_HEIGHT } from './sizes';
export { BLANK_TILE, OFFLINE_TILES } from './tiles';
export type { MapPoint } from './base-map';
export type { PinMapProps } from './PinMap';
export type { TrackingMapProps } from './TrackingMap';
