/**
 * The one place that says where map tiles come from (the address pin map in mfe-account). A
 * deployment with its own tile server, or a paid provider, changes only this file. The
 * OpenStreetMap tile policy asks for this attribution wherever its tiles are shown.
 */
export const MAP_TILES = {
  url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
  maxZoom: 19,
} as const;

/**
 * Where a map starts when there is no picked place and no delivery location: the centre of the
 * first launch city (Bangalore, whose slug is the default city elsewhere in the app).
 */
export const DEFAULT_MAP_CENTRE = { lat: 12.9716, lng: 77.5946 } as const;
