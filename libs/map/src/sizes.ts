/**
 * Each map's height in pixels, held by its box from the lazy placeholder to the drawn map, so the
 * page never moves around it. Free of Leaflet: the lazy wrappers read these before any map loads.
 */
export const PIN_MAP_HEIGHT = 220;
export const TRACKING_MAP_HEIGHT = 280;
