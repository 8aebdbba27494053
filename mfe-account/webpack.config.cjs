// mfe-account: a remote; the shell registers it at runtime from /mfe-manifest.json.
const { createWebpackConfig } = require('@tiffin/build-config');

module.exports = createWebpackConfig({
  projectDir: __dirname,
  federationName: 'mfe_account',
  exposes: {
    './App': './src/remote-entry.ts',
    // The login / sign-up sidebar, mounted by the shell on `auth:open`.
    './AuthSidebar': './src/auth-sidebar-entry.ts',
  },
});
