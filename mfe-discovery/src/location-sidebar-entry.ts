// Exposed as mfe_discovery/LocationSidebar. Only re-exports: the code lives in src/location.
export { default } from './location/LocationSidebar';
