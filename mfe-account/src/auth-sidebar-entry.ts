// Exposed as mfe_account/AuthSidebar. Only re-exports: the code lives in src/app.
export { default } from './app/auth/AuthSidebar';
