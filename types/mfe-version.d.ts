// Replaced at build time by DefinePlugin (see libs/build-config/webpack.cjs) and at test time by
// Vite's `define` (libs/build-config/vitest.mjs) with the microfrontend's published version.
declare const __MFE_VERSION__: string;
