// The shell: host of every microfrontend. Remotes are registered at runtime from
// /mfe-manifest.json (src/federation), never here.
const path = require('node:path');
const { createWebpackConfig } = require('@tiffin/build-config');

module.exports = createWebpackConfig({
  projectDir: __dirname,
  federationName: 'shell',
  host: {
    entry: './src/index.ts',
    publicPath: '/shell/',
    htmlTemplate: path.join(__dirname, 'src/index.html'),
    // Inline in index.html, for the first paint the edge writes into it (src/styles/first-paint.css).
    inlineStyles: [
      require.resolve('@tiffin/design-system/src/styles/tokens.css'),
      path.join(__dirname, 'src/styles/shell.css'),
      path.join(__dirname, 'src/styles/first-paint.css'),
    ],
    runtimePlugins: [path.join(__dirname, 'src/federation/remote-load-plugin.ts')],
    // The edge reads the route table from the published build to answer 200 or 404.
    copy: [{ name: 'routes.json', from: path.join(__dirname, 'src/routes.json') }],
  },
});
