// mfe-desk: a remote; the shell registers it at runtime from /mfe-manifest.json.
const { createWebpackConfig } = require('@tiffin/build-config');

module.exports = createWebpackConfig({
  projectDir: __dirname,
  federationName: 'mfe_desk',
  exposes: {
    './App': './src/remote-entry.ts',
  },
});
