/**
 * The one webpack + Module Federation configuration factory for every Tiffin web app.
 *
 * Apps call `createWebpackConfig({...})` from their `webpack.config.cjs` with only what differs
 * (their federation name, exposes, and for the shell its HTML and runtime plugins). Everything else
 * — loaders, shared singletons, output naming, the injected version — is decided here once, so a
 * remote and the shell can never disagree about what is shared.
 *
 * Why esbuild-loader: it only transpiles (TypeScript + JSX) and is roughly an order of magnitude
 * faster than ts-loader or babel on this 2-core machine; type checking is a separate, cacheable
 * `typecheck` target (tsc), so the production build does not pay for it twice.
 *
 * Kept as plain CommonJS: webpack-cli loads it directly without a TypeScript config loader.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const webpack = require('webpack');
const CompressionPlugin = require('compression-webpack-plugin');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const postcss = require('postcss');

const WORKSPACE_ROOT = path.resolve(__dirname, '..', '..');

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The Tiffin libraries shared at runtime (build-config itself is build-time only). */
const SHARED_LIBS = ['@tiffin/contract', '@tiffin/api-client', '@tiffin/design-system', '@tiffin/cart-store', '@tiffin/map', '@tiffin/address-form', '@tiffin/payment-link'];

/**
 * Shared singletons. One React (hooks and context break with two copies), one design system
 * (styles injected once), one API client (one session and CSRF token), one contract, one address
 * form and one payment-link flow (their styles injected once), one map package (Leaflet, which
 * only it imports, and its styles fetched once, whichever map a page shows first).
 * `requiredVersion` is the caret range of what this build was compiled against, so a remote built
 * against a newer major warns instead of silently mixing Reacts.
 */
function sharedModules() {
  const reactVersion = readJson(require.resolve('react/package.json', { paths: [WORKSPACE_ROOT] })).version;
  const reactDomVersion = readJson(require.resolve('react-dom/package.json', { paths: [WORKSPACE_ROOT] })).version;
  const major = (v) => `^${v.split('.')[0]}.0.0`;
  const shared = {
    react: { singleton: true, requiredVersion: major(reactVersion), version: reactVersion },
    'react/jsx-runtime': { singleton: true, requiredVersion: major(reactVersion), version: reactVersion },
    'react-dom': { singleton: true, requiredVersion: major(reactDomVersion), version: reactDomVersion },
    'react-dom/client': { singleton: true, requiredVersion: major(reactDomVersion), version: reactDomVersion },
  };
  for (const lib of SHARED_LIBS) {
    const { version } = readJson(path.join(WORKSPACE_ROOT, 'libs', lib.replace('@tiffin/', ''), 'package.json'));
    shared[lib] = { singleton: true, requiredVersion: `^${version}`, version };
  }
  return shared;
}

/** Emits extra files into the build output (the shell's routes.json, every app's build info). */
class EmitFilesPlugin {
  /**
   * @param {Array<{ name: string, from: string, content?: undefined }
   *   | { name: string, from?: undefined, content: () => string, dependencies?: string[] }>} files
   */
  constructor(files) {
    this.files = files;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('EmitFilesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'EmitFilesPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          for (const file of this.files) {
            let text;
            if (file.from !== undefined) {
              compilation.fileDependencies.add(file.from);
              text = fs.readFileSync(file.from, 'utf8');
            } else {
              for (const dependency of file.dependencies ?? []) compilation.fileDependencies.add(dependency);
              text = file.content();
            }
            compilation.emitAsset(file.name, new webpack.sources.RawSource(text));
          }
        },
      );
    });
  }
}

/**
 * Names, in the shell's index.html, every chunk the shell's start-up needs besides main.js, as
 * `<link rel="preload" as="script">`: the chunk of `import('./bootstrap')` (the async boundary
 * Module Federation needs) and the chunks of the shared modules it uses (React, the @tiffin
 * libraries), which the share scope loads from the shell's own copies. Without the links the
 * browser learns of them only once main.js has downloaded and run, one round trip later; with
 * them they download beside main.js. Lazy chunks (the shell's info pages) are not named, and the
 * chunk loader's own script tags (same origin, no crossorigin) take the preloaded responses.
 */
class PreloadStartupChunksPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PreloadStartupChunksPlugin', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('PreloadStartupChunksPlugin', (data) => {
        const publicPath = compilation.outputOptions.publicPath;
        for (const file of startupChunkFiles(compilation)) {
          data.headTags.push(HtmlWebpackPlugin.createHtmlTagObject('link', { rel: 'preload', as: 'script', href: `${publicPath}${file}` }));
        }
        return data;
      });
    });
  }
}

/** The JavaScript files of the chunks a host's entries load at start-up, beyond the entries' own. */
function startupChunkFiles(compilation) {
  const { chunkGraph } = compilation;
  /** The shell's own copy of each shared module, by share key: what its share scope hands out. */
  const provided = new Map();
  for (const module of compilation.modules) {
    if (module.type === 'provide-module') provided.set(module._name, module);
  }
  const queue = [];
  const enqueueBlock = (block) => {
    const group = chunkGraph.getBlockChunkGroup(block);
    if (group) queue.push(...group.chunks);
  };
  const entryChunks = new Set();
  for (const entrypoint of compilation.entrypoints.values()) {
    for (const chunk of entrypoint.chunks) entryChunks.add(chunk);
    // The entry modules' own dynamic imports: the bootstrap.
    for (const chunk of entrypoint.chunks) {
      for (const module of chunkGraph.getChunkEntryModulesIterable(chunk)) module.blocks.forEach(enqueueBlock);
    }
  }
  const seen = new Set();
  const files = [];
  while (queue.length > 0) {
    const chunk = queue.shift();
    if (seen.has(chunk) || entryChunks.has(chunk)) continue;
    seen.add(chunk);
    for (const file of chunk.files) if (file.endsWith('.js')) files.push(file);
    for (const module of chunkGraph.getChunkModulesIterable(chunk)) {
      if (module.type !== 'consume-shared-module') continue;
      const provider = provided.get(module.options.shareKey);
      if (provider) provider.blocks.forEach(enqueueBlock);
    }
  }
  return files.sort();
}

/**
 * A remote's `preload.json`, beside its remoteEntry.js: the JavaScript files each expose needs
 * (`exposes`) and each route's first page needs (`routes`, from the remote's `routeChunks`: route
 * id → its page's chunk names), so the edge can name them in a page's HTML and the browser fetch
 * them with it instead of one after another once remoteEntry.js and the expose have run. A route
 * whose first page differs once the visitor has a location has a second key, `<route>+located`.
 * Shared modules are left out: the shell provides them. An unknown chunk name fails the build.
 */
class RemotePreloadManifestPlugin {
  /** @param {Record<string, string[]>} routeChunks */
  constructor(routeChunks) {
    this.routeChunks = routeChunks;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('RemotePreloadManifestPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'RemotePreloadManifestPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, () => {
        const scripts = (group) => group.chunks.flatMap((chunk) => [...chunk.files].filter((file) => file.endsWith('.js')));
        const filesOf = (name) => {
          const group = compilation.namedChunkGroups.get(name);
          if (!group) throw new Error(`preload.json: no chunk named "${name}" (routeChunks must name webpackChunkName values)`);
          return scripts(group);
        };
        const unique = (files) => [...new Set(files)].sort();
        const exposes = {};
        for (const module of compilation.modules) {
          // The container entry (remoteEntry.js) holds one async block per expose, located by its name.
          if (!module._exposes) continue;
          for (const block of module.blocks) {
            const group = compilation.chunkGraph.getBlockChunkGroup(block);
            const name = block.loc && typeof block.loc.name === 'string' ? block.loc.name.replace(/^\.\//, '') : undefined;
            if (group && name) exposes[name] = unique(scripts(group));
          }
        }
        const routes = {};
        for (const [route, chunks] of Object.entries(this.routeChunks)) routes[route] = unique(chunks.flatMap(filesOf));
        compilation.emitAsset('preload.json', new webpack.sources.RawSource(`${JSON.stringify({ exposes, routes }, null, 2)}\n`));
      });
    });
  }
}

/**
 * Stylesheets joined into one and made smaller without changing a rule: comments dropped,
 * whitespace runs made one space (none beside braces and semicolons). For CSS that travels inside
 * a page's HTML (the first paint), where every byte is on the first screen's path.
 */
function inlineCss(files) {
  return smallerCss(files.map((file) => fs.readFileSync(file, 'utf8')).join('\n'));
}

function smallerCss(css) {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};])\s*/g, '$1')
    .trim();
}

/** The element the edge draws a first paint in (services/edge/src/routes/platform/first_paint.rs). */
const FIRST_PAINT_ID = 'tiffin-first-paint';

/**
 * The first paint's stylesheets as one, every rule limited to the first paint's element
 * (`#tiffin-first-paint .disc-card`). The page's own styles arrive in the head one module at a
 * time while the first paint is on screen; rules of the same weight from a later sheet would win
 * over the first paint's own for a frame or two (the design system's before the page's, say) and
 * move it. Scoped, the first paint's rules outweigh any class rule, keep their own order whatever
 * arrives, and never touch the page beneath.
 */
function firstPaintCss(files) {
  const root = postcss.parse(files.map((file) => fs.readFileSync(file, 'utf8')).join('\n'));
  root.walkRules((rule) => {
    // A keyframe's steps (from, 50%) are not selectors.
    if (rule.parent?.type === 'atrule' && /keyframes$/i.test(/** @type {import('postcss').AtRule} */ (rule.parent).name)) return;
    rule.selectors = rule.selectors.map((selector) => `#${FIRST_PAINT_ID} ${selector}`);
  });
  return smallerCss(root.toString());
}

/**
 * A remote's first paint (see services/edge/src/routes/platform/first_paint.rs): the templates
 * of its routes' first screens, copied under `first-paint/`, the stylesheets they rely on joined
 * into `first-paint.css`, and `first-paint.json` naming both for the edge. A template or
 * stylesheet that does not exist fails the build.
 *
 * @param {string} projectDir
 * @param {{ templates: string, styles: string[], routes: Record<string, string | { template: string, header?: boolean }> }} firstPaint
 */
function firstPaintFiles(projectDir, firstPaint) {
  const folder = path.join(projectDir, firstPaint.templates);
  const templates = fs.readdirSync(folder).filter((file) => file.endsWith('.html'));
  const routes = {};
  for (const [route, value] of Object.entries(firstPaint.routes)) {
    const { template, header = true } = typeof value === 'string' ? { template: value } : value;
    if (!templates.includes(template)) throw new Error(`first paint: route "${route}" names ${template}, which ${folder} does not hold`);
    routes[route] = { template: `first-paint/${template}`, header };
  }
  const styles = firstPaint.styles.map((file) => path.resolve(projectDir, file));
  return [
    ...templates.map((file) => ({ name: `first-paint/${file}`, from: path.join(folder, file) })),
    { name: 'first-paint.css', content: () => firstPaintCss(styles), dependencies: styles },
    { name: 'first-paint.json', content: () => `${JSON.stringify({ styles: 'first-paint.css', routes }, null, 2)}\n` },
  ];
}

/** What is precompressed: text the browser fetches (not source maps, not licences, not images). */
const COMPRESSIBLE = /\.(js|css|html|json|svg)$/;
/** Below about 1 KB the saving does not pay for a second file and a lookup. */
const COMPRESS_THRESHOLD = 1024;

/**
 * `<file>.br` (Node's zlib brotli at its highest quality) and `<file>.gz` (gzip level 9) beside
 * every compressible file over the threshold, made once at build time so the edge can send them
 * by Accept-Encoding without compressing on each request. `minRatio: 1` keeps a compressed copy
 * whenever it is smaller at all. The output is byte-for-byte the same for the same input (gzip's
 * header carries no time), so publishing an unchanged build is still "the same files".
 */
function precompressPlugins() {
  // The plugin's options are typed after its algorithm's; they default to gzip's (ZlibOptions).
  const BrotliPlugin = /** @type {typeof CompressionPlugin<zlib.BrotliOptions>} */ (CompressionPlugin);
  const common = { test: COMPRESSIBLE, threshold: COMPRESS_THRESHOLD, minRatio: 1, deleteOriginalAssets: false };
  return [
    new BrotliPlugin({
      ...common,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: {
        params: {
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        },
      },
    }),
    new CompressionPlugin({ ...common, filename: '[path][base].gz', algorithm: 'gzip', compressionOptions: { level: zlib.constants.Z_BEST_COMPRESSION } }),
  ];
}

/**
 * One federation runtime per page. The shell bundles `@module-federation/runtime-core` and its
 * first runtime plugin (the library's injection plugin, federation-runtime-provider.mjs) puts it
 * on a global when the shell's federation starts, before any remote can load. Each remote leaves
 * the runtime out of its remoteEntry.js (`externalRuntime`) and uses that one, so a page loads
 * the runtime once instead of once per remote. A remote therefore only runs inside the shell,
 * which is the only place it is ever loaded. The shell and every remote are built by this file
 * from one lock file, so they agree on the runtime's version; a remote republished later is
 * built the same way.
 *
 * Both leave out what we never use: the snapshot plugin (it reads mf-manifest.json remotes; ours
 * are registered by their remoteEntry.js) and the runtime's Node.js loading paths.
 *
 * @param {boolean} isHost
 */
function federationExperiments(isHost) {
  return {
    ...(isHost ? {} : { externalRuntime: true }),
    optimization: { disableSnapshot: true, target: /** @type {const} */ ('web') },
  };
}

/** The runtime plugin that provides the shell's federation runtime (see federationExperiments). */
const RUNTIME_PROVIDER_PLUGIN = path.join(__dirname, 'federation-runtime-provider.mjs');

/**
 * @param {object} options
 * @param {string} options.projectDir         the app's folder (`__dirname` of its webpack config)
 * @param {string} options.federationName     container name (`shell`, `mfe_cart`, …)
 * @param {Record<string,string>} [options.exposes]  remote exposes (`./App` → file)
 * @param {Record<string,string[]>} [options.routeChunks]  remote: each route's first page chunks (preload.json)
 * @param {{ templates: string, styles: string[], routes: Record<string, string | { template: string, header?: boolean }> }} [options.firstPaint]
 *   remote: its routes' first-paint templates (a folder of the project), the stylesheets they rely
 *   on, and which template each route (or `<route>+located`) shows; `header: false` for a page the
 *   shell's header does not sit above
 * @param {object} [options.host]             set for the shell only
 * @param {string} options.host.publicPath    where the edge serves the shell build (`/shell/`)
 * @param {string} options.host.entry         the shell's entry (`./src/index.ts`)
 * @param {string} options.host.htmlTemplate  index.html template
 * @param {string[]} [options.host.runtimePlugins]  Module Federation runtime plugins
 * @param {Array<{name: string, from: string}>} [options.host.copy]  files copied into the output
 * @param {string[]} [options.host.inlineStyles]  stylesheets written inline into index.html
 */
function createWebpackConfig(options) {
  const { projectDir, federationName, exposes = {}, routeChunks = {}, firstPaint, host } = options;
  const pkg = readJson(path.join(projectDir, 'package.json'));
  // Overridable so a team can publish the same code under a new version (and tests can tell
  // versions apart) without editing package.json.
  const version = process.env.MFE_VERSION || pkg.version;

  return (_env, argv = {}) => {
    const mode = argv.mode || process.env.NODE_ENV || 'production';
    const production = mode === 'production';

    return {
      mode,
      context: projectDir,
      // Remotes need no page entry: the federation plugin adds the container entry (remoteEntry.js).
      entry: host ? { main: host.entry } : {},
      devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
      target: 'web',
      output: {
        path: path.join(projectDir, 'dist'),
        publicPath: host ? host.publicPath : 'auto',
        // Each app gets its own chunk-loading global, so several webpack runtimes coexist on one page.
        uniqueName: federationName,
        // Entry files keep a fixed name: the federation runtime module renders this template before
        // hashes exist ("Path variable [contenthash] not implemented in this context"). The shell's
        // index.html busts caches with `?<hash>` instead (HtmlWebpackPlugin `hash`), and a remote's
        // entry (remoteEntry.js) lives under its immutable /mfe/<id>/<version>/ folder.
        filename: '[name].js',
        chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.jsx', '.js', '.json'],
      },
      module: {
        rules: [
          {
            test: /\.[cm]?[jt]sx?$/,
            exclude: /node_modules/,
            loader: 'esbuild-loader',
            options: { target: 'es2020', jsx: 'automatic' },
          },
          { test: /\.css$/, use: ['style-loader', 'css-loader'] },
        ],
      },
      performance: { hints: false },
      optimization: {
        // webpack 5.111 also minifies emitted .html by default, which would strip the
        // <!--tiffin:initial-state--> comment the edge replaces in the shell's index.html.
        minimizeOptions: { html: false },
      },
      plugins: [
        new webpack.DefinePlugin({ __MFE_VERSION__: JSON.stringify(version) }),
        new ModuleFederationPlugin({
          name: federationName,
          ...(host ? {} : { filename: 'remoteEntry.js', exposes }),
          // Nothing about a remote's location is compiled in: the shell registers remotes at
          // runtime from /mfe-manifest.json.
          remotes: {},
          shared: sharedModules(),
          // Use whatever shared module is already loaded instead of fetching every registered
          // remote's entry up front to compare versions: a remote that is down must not delay or
          // break the page.
          shareStrategy: 'loaded-first',
          runtimePlugins: host ? [RUNTIME_PROVIDER_PLUGIN, ...(host.runtimePlugins ?? [])] : [],
          experiments: federationExperiments(Boolean(host)),
          dts: false,
          manifest: false,
        }),
        ...(host
          ? [
              new HtmlWebpackPlugin({
                template: host.htmlTemplate,
                // Minification would strip <!--tiffin:initial-state-->, which the edge replaces.
                minify: false,
                // The template places the tags (the shell's script and its preloads) before the
                // initial state, which can be long (a menu's first reply): the browser then finds
                // them as soon as the head starts arriving.
                inject: false,
                scriptLoading: 'defer',
                hash: true,
                templateParameters: { inlineStyles: inlineCss(host.inlineStyles ?? []) },
              }),
              new PreloadStartupChunksPlugin(),
            ]
          : [new RemotePreloadManifestPlugin(routeChunks)]),
        new EmitFilesPlugin([
          ...(host?.copy ?? []),
          ...(firstPaint ? firstPaintFiles(projectDir, firstPaint) : []),
          {
            // Read by scripts/publish-mfe.mjs so a publish can never disagree with the build.
            name: 'build-info.json',
            content: () => `${JSON.stringify({ id: pkg.name, name: federationName, version }, null, 2)}\n`,
          },
        ]),
        ...(production ? precompressPlugins() : []),
      ],
    };
  };
}

module.exports = { createWebpackConfig, sharedModules, SHARED_LIBS, COMPRESSIBLE, COMPRESS_THRESHOLD };
