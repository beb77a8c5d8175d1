/**
 * Client build: webpack 5, Babel (.babelrc, env "browser") strips TypeScript and JSX,
 * `tsc --noEmit` checks types separately. Entries: `picture` (a small script of its own that paints
 * the farmer's last home before the rest has arrived), `reads` and `early` (the first requests and
 * the offline database, begun while the rest downloads) and `main`. Output in dist/: index.html,
 * content-hashed chunks, one lazy chunk per screen, extracted CSS, the public/ assets and the Workbox service worker dist/sw.js.
 *
 * Run with `npm run build` (node --import tsx webpack-cli --mode production). Nothing here reaches
 * the network, so the build works on a machine with no internet.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Compiler, Configuration } from 'webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import CopyWebpackPlugin from 'copy-webpack-plugin';
import { InjectManifest } from 'workbox-webpack-plugin';
import webpack from 'webpack';
import { sl } from './src/common/i18n/sl';
import { APP_SCRIPTS_META } from './src/client/app/bootstrap/app-scripts';
import { REACT_ON_PREACT } from './scripts/react-on-preact.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };

/** Meadow green of the header; the same value is in public/manifest.webmanifest. */
const THEME_COLOR = '#1f5f2a';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text assets worth compressing (source maps are for debugging, never sent to a phone). */
const COMPRESSIBLE = /\.(?:js|css|html|json|svg|webmanifest|txt)$/;
/** Below this size the headers cost more than compression saves. */
const COMPRESS_MIN_BYTES = 1024;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every text asset, made once at build time
 * at the highest settings, which the server's static plugin sends to browsers that accept them
 * (src/server/plugins/static.ts). Runs at webpack's OPTIMIZE_TRANSFER stage, after Workbox wrote
 * sw.js (OPTIMIZE_TRANSFER - 10), so sw.js gets copies and the precache list does not list them:
 * the service worker fetches the plain URLs and the network sends it the same compressed bytes.
 */
class PrecompressPlugin {
  apply(compiler: Compiler): void {
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        { name: 'PrecompressPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
        async (assets) => {
          await Promise.all(
            Object.entries(assets).map(async ([name, source]) => {
              if (!COMPRESSIBLE.test(name)) return;
              const raw = source.buffer();
              if (raw.length < COMPRESS_MIN_BYTES) return;
              const [br, gz] = await Promise.all([
                brotli(raw, {
                  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
                }),
                gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
              ]);
              const info = { compressed: true, development: true };
              if (br.length < raw.length) compilation.emitAsset(`${name}.br`, new webpack.sources.RawSource(br), info);
              if (gz.length < raw.length) compilation.emitAsset(`${name}.gz`, new webpack.sources.RawSource(gz), info);
            }),
          );
        },
      );
    });
  }
}

/**
 * What index.html loads: the stylesheets, the `reads` entry's scripts (deferred), and the list of
 * the app's own (`early`, then `main`), which the `reads` entry loads once the season's first
 * requests have left (src/client/app/bootstrap/app-scripts.ts).
 */
function pageFiles(compilation: webpack.Compilation): { styles: string[]; readsScripts: string[]; appScripts: string } {
  const filesOf = (entry: string) => (compilation.entrypoints.get(entry)?.getFiles() ?? []).map((file) => `/${file}`);
  const readsScripts = filesOf('reads').filter((file) => file.endsWith('.js'));
  const app = [...filesOf('early'), ...filesOf('main')];
  return {
    styles: [...new Set(app.filter((file) => file.endsWith('.css')))],
    readsScripts,
    appScripts: [...new Set(app.filter((file) => file.endsWith('.js') && !readsScripts.includes(file)))].join(' '),
  };
}

/**
 * The home screen's own chunks (JavaScript and CSS), which the HTML preloads: otherwise the
 * browser asks for them only after the main script has run and the router has matched `/`, one
 * more round trip before the first screen on a slow network.
 */
function startScreenFiles(compilation: webpack.Compilation): { href: string; as: 'script' | 'style' }[] {
  const group = compilation.namedChunkGroups.get('route-home');
  if (!group) return [];
  const own = new Set(compilation.entrypoints.get('main')?.getFiles() ?? []);
  return group
    .getFiles()
    .filter((file) => !own.has(file) && /\.(?:js|css)$/.test(file))
    .map((file) => ({ href: `/${file}`, as: file.endsWith('.css') ? 'style' : 'script' }));
}

export default (_env: unknown, argv: { mode?: 'production' | 'development' }): Configuration => {
  const production = argv.mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    context: root,
    // Listed in the order they run: `reads` (app/bootstrap/early-fetch.ts) sends a first visit's
    // season requests, then loads the others (app/bootstrap/app-scripts.ts); `early`
    // (app/bootstrap/early-db.ts) begins creating the offline database while the rest of the
    // JavaScript downloads. Each depends on those before it (`dependOn`): what they share stays in
    // the first that has it, not in a chunk of its own (one request less on a first visit).
    // `picture` is not among them: index.html runs it on its own, right after the root element,
    // before the parser reaches the rest (app/bootstrap/home-picture.ts). It needs no separate
    // runtime chunk (`runtime: false` builds webpack's runtime into it) and nothing of it is split
    // out into shared chunks: one file of about 2 kB.
    entry: {
      picture: { import: './src/client/app/bootstrap/paint-home-picture.ts', runtime: false },
      reads: './src/client/app/bootstrap/early-fetch.ts',
      early: { import: './src/client/app/bootstrap/early-db.ts', dependOn: 'reads' },
      main: { import: './src/client/main.tsx', dependOn: ['reads', 'early'] },
    },
    target: 'web',
    // Source maps are written for debugging but kept out of the precache (see InjectManifest).
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    output: {
      path: path.join(root, 'dist'),
      publicPath: '/',
      filename: production ? 'static/js/[name].[contenthash:10].js' : 'static/js/[name].js',
      chunkFilename: production ? 'static/js/[name].[contenthash:10].chunk.js' : 'static/js/[name].chunk.js',
      assetModuleFilename: 'static/media/[name].[contenthash:10][ext]',
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
      // React's API on Preact (scripts/react-on-preact.mjs): exact module names only.
      alias: Object.fromEntries(Object.entries(REACT_ON_PREACT).map(([name, target]) => [`${name}$`, target])),
    },
    module: {
      rules: [
        {
          test: /\.[cm]?[jt]sx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'babel-loader',
            // envName selects the "browser" env of .babelrc (browser targets, ES modules kept so
            // webpack can split and tree-shake).
            options: { envName: 'browser', cacheDirectory: true },
          },
        },
        {
          test: /\.css$/,
          use: [MiniCssExtractPlugin.loader, { loader: 'css-loader', options: { importLoaders: 0 } }],
        },
        {
          test: /\.(png|jpe?g|webp|svg)$/i,
          type: 'asset',
          parser: { dataUrlCondition: { maxSize: 4 * 1024 } },
        },
      ],
    },
    optimization: {
      // Stable ids keep unchanged chunks' hashes (and the service worker's precache) stable across builds.
      moduleIds: 'deterministic',
      chunkIds: 'deterministic',
      runtimeChunk: 'single',
      splitChunks: {
        chunks: (chunk) => chunk.name !== 'picture',
        cacheGroups: {
          // Preact + Redux change rarely: one long-lived vendor chunk for the initial load.
          // The map library (MapLibre GL + Draw) only in a lazy chunk of its own, named for the
          // bench (client.chunk_map_vendor_gz_kb): never in the initial JavaScript.
          mapVendor: {
            test: /[\\/]node_modules[\\/](maplibre-gl|@maplibre|@mapbox[\\/]mapbox-gl-draw)[\\/]/,
            name: 'map-vendor',
            chunks: 'async',
            priority: 30,
            enforce: true,
          },
          framework: {
            test: /[\\/]node_modules[\\/](preact|react-redux|@reduxjs|redux|redux-thunk|reselect|immer|use-sync-external-store)[\\/]/,
            name: 'framework',
            chunks: 'initial',
            priority: 20,
          },
        },
      },
    },
    performance: {
      // The map library (lazy) is large by nature; the initial bundle is watched by the bench.
      hints: false,
    },
    plugins: [
      new webpack.DefinePlugin({
        __APP_VERSION__: JSON.stringify(pkg.version),
      }),
      new HtmlWebpackPlugin({
        template: path.join(root, 'public/index.html'),
        filename: 'index.html',
        // The template places every file itself (pageFiles).
        inject: false,
        templateParameters: (compilation) => ({
          ...pageFiles(compilation),
          appScriptsMeta: APP_SCRIPTS_META,
          title: sl.common.appName,
          description: sl.app.description,
          loading: sl.common.loading,
          noscript: sl.app.noscript,
          themeColor: THEME_COLOR,
          startScreenFiles: startScreenFiles(compilation),
          pictureScript: `/${
            compilation.entrypoints
              .get('picture')
              ?.getFiles()
              .find((file) => file.endsWith('.js')) ?? ''
          }`,
        }),
        minify: production ? { collapseWhitespace: true, removeComments: true } : false,
      }),
      new MiniCssExtractPlugin({
        filename: production ? 'static/css/[name].[contenthash:10].css' : 'static/css/[name].css',
        chunkFilename: production ? 'static/css/[name].[contenthash:10].chunk.css' : 'static/css/[name].chunk.css',
      }),
      new CopyWebpackPlugin({
        patterns: [
          {
            from: path.join(root, 'public'),
            to: '.',
            // index.html is the HtmlWebpackPlugin template, not a file to copy.
            globOptions: { ignore: ['**/index.html'] },
          },
        ],
      }),
      new InjectManifest({
        swSrc: path.join(root, 'src/client/service-worker/sw.ts'),
        swDest: 'sw.js',
        // Precache the app shell and every chunk, lazy screens included, so the app opens with no
        // network after one visit. Source maps and licence notes are not needed offline.
        exclude: [/\.map$/, /LICENSE\.txt$/, /^sw\.js$/, /\.(?:br|gz)$/],
        // The map library chunk is about 1 MB; allow it so maps work offline too.
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
        // Hashed file names bust caches by themselves; Workbox need not add a revision query.
        dontCacheBustURLsMatching: /\.[0-9a-f]{10}\.(?:chunk\.)?(?:js|css)$/,
      }),
      ...(production ? [new PrecompressPlugin()] : []),
    ],
    stats: production ? 'normal' : 'minimal',
  };
};
