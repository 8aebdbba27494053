// Exposed as mfe_desk/App. Only re-exports: the code lives in src/app.
export { default } from './app/App';
