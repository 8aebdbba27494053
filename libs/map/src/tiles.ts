/**
 * Tile sources besides the site's own (`MAP_TILES` in @tiffin/contract, the default of every map
 * here). Kept free of Leaflet so pages and tests can name a source without loading a map.
 */
import type { MapTiles } from '@tiffin/contract';

/** A transparent 1×1 GIF: what a tile that cannot load shows instead of a broken-image icon. */
export const BLANK_TILE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/**
 * Tiles that need no server at all: every tile is the blank image, so the map is its ground
 * colour with the markers and lines on it. For tests and runs without a network, so nothing ever
 * asks an outside tile server.
 */
export const OFFLINE_TILES: MapTiles = { url: BLANK_TILE, attribution: '', maxZoom: 19 };
