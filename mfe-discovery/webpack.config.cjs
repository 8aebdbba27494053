// mfe-discovery: a remote; the shell registers it at runtime from /mfe-manifest.json.
const { createWebpackConfig } = require('@tiffin/build-config');

module.exports = createWebpackConfig({
  projectDir: __dirname,
  federationName: 'mfe_discovery',
  exposes: {
    './App': './src/remote-entry.ts',
    // The location sidebar, mounted by the shell on `location:open`.
    './LocationSidebar': './src/location-sidebar-entry.ts',
  },
});
