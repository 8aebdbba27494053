// Exposed as mfe_discovery/App. Only re-exports: the code lives in src/app.
export { default } from './app/App';
