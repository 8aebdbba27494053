/**
 * The one place that says where map tiles come from (every map on the site draws them through
 * @tiffin/map: the address pin map, the order tracking map). A deployment with its own tile
 * server, or a paid provider, changes only this file. The OpenStreetMap tile policy asks for this
 * attribution wherever its tiles are shown.
 */

/** A tile source: a `{z}/{x}/{y}` URL template, the credit shown on the map, the deepest zoom. */
export interface MapTiles {
  url: string;
  attribution: string;
  maxZoom: number;
}

export const MAP_TILES: MapTiles = {
  url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  maxZoom: 19,
};

/**
 * Where a map starts when there is no picked place and no delivery location: the centre of the
 * first launch city (Bangalore, whose slug is the default city elsewhere in the app).
 */
export const DEFAULT_MAP_CENTRE = { lat: 12.9716, lng: 77.5946 } as const;
