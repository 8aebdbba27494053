// mfe-cart: a remote; the shell registers it at runtime from /mfe-manifest.json.
const { createWebpackConfig } = require('@tiffin/build-config');

module.exports = createWebpackConfig({
  projectDir: __dirname,
  federationName: 'mfe_cart',
  exposes: {
    './App': './src/remote-entry.ts',
    // The header's cart flyout, mounted by the shell.
    './HeaderCart': './src/header-cart-entry.ts',
  },
});
