// Exposed as mfe_cart/HeaderCart. Only re-exports: the code lives in src/app.
export { default } from './app/HeaderCart';
