import path from 'node:path';
import fs from 'node:fs';
import type { Chunk, Compiler, Configuration, Module } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import CopyWebpackPlugin from 'copy-webpack-plugin';
import CompressionPlugin from 'compression-webpack-plugin';
import { constants as zlib, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import { EsbuildPlugin } from 'esbuild-loader';
import { Compilation, DefinePlugin, sources } from 'webpack';
import { DEFAULT_PUBLISHABLE_KEY } from './src/api/backend';
import { builtHeaderOptions, headersFile } from './server/headerFiles';
import { securityHeaders, type SecurityHeaderOptions } from './server/securityHeaders';

const root = __dirname;

/**
 * What is compressed once at build time, beside each file (main.js.br, main.js.gz), for the
 * server to send by the browser's Accept-Encoding (server/app.ts). Fonts and images are
 * compressed formats already; source maps are never served.
 */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
const precompressed = [
  new CompressionPlugin<BrotliOptions>({
    test: COMPRESSIBLE,
    filename: '[path][base].br',
    algorithm: 'brotliCompress',
    compressionOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY } },
    // Kept only when smaller: the server falls back to the file itself.
    minRatio: 0.9,
  }),
  new CompressionPlugin<ZlibOptions>({
    test: COMPRESSIBLE,
    filename: '[path][base].gz',
    algorithm: 'gzip',
    compressionOptions: { level: zlib.Z_BEST_COMPRESSION },
    minRatio: 0.9,
  }),
];
/**
 * The story's lines and the ending's parts, which the game and a published story's page both
 * show (src/features/game/views/WrittenStory.tsx and its writtenStory.css): copied into the
 * game's part and the page's, not split into a chunk of their own. They are just over
 * splitChunks' 2 KB, and a chunk of their own cost a whole game 1.2 KB gzip and two requests more
 * than the copy (and the page 0.9 KB more).
 */
const WRITTEN_STORY =
  /[\\/]src[\\/]features[\\/]game[\\/]views[\\/](WrittenStory\.tsx|writtenStory\.css)$/;
/**
 * The chunks split into shared parts: the lazy ones, but those most games never load: the
 * pictures' (issue 41: their flows, views, words and compression worker, named picture*) and
 * what the game says when the model gives trouble (model-troubles). Modules they share with the
 * game's chunks made splitChunks cut those into more, smaller pieces that every game downloads
 * (the pictures alone cost a whole game 1.1 KB more over the wire); these chunks keep their own
 * copies of what they share instead, downloaded only when they are.
 */
const ON_DEMAND_ONLY = /^(picture|model-troubles$)/;
const splitForEveryGame = (chunk: Chunk): boolean =>
  !chunk.canBeInitial() && !ON_DEMAND_ONLY.test(chunk.name ?? '');
/** DIST_DIR, as the server reads it, lets a second build go elsewhere (default dist/). */
const outDir = path.resolve(process.env.DIST_DIR ?? path.join(root, 'dist'));
/**
 * REDUX_DEVTOOLS=on: a production build that connects to Redux DevTools (src/app/store.ts), made
 * for a developer's debugger: left readable (not minified) and not precompressed, which also
 * makes it in about a third of the time (the DevTools e2e test builds one).
 */
const devtoolsBuild = process.env.REDUX_DEVTOOLS === 'on';
/** The local server that `npm run dev` proxies backend calls to (see server/index.ts). */
const backendUrl = process.env.BACKEND_URL ?? 'http://localhost:8081';

/**
 * React Router's package points every bundler at its development build, whose dev warnings
 * are switched on by a constant rather than by NODE_ENV; a production build takes the
 * production one it ships beside it (the same code with the warnings off: 0.4 KB gzip less
 * JavaScript for /).
 */
const reactRouterDist = path.join(
  path.dirname(require.resolve('react-router/package.json')),
  'dist/production',
);
const reactRouterProductionBuild = {
  'react-router$': path.join(reactRouterDist, 'index.mjs'),
  'react-router/dom$': path.join(reactRouterDist, 'dom-export.mjs'),
};

/**
 * Writes dist/build-stats.json: which files every chunk has and which are loaded up front,
 * so scripts/report-bundle.ts can print gzip sizes and check the initial-JavaScript budget.
 */
class BuildStatsPlugin {
  apply(compiler: Compiler): void {
    compiler.hooks.done.tap('BuildStatsPlugin', (stats) => {
      const json = stats.toJson({
        all: false,
        entrypoints: true,
        chunkGroups: true,
        chunks: true,
        assets: false,
      });
      const entrypoints = Object.fromEntries(
        Object.entries(json.entrypoints ?? {}).map(([name, entry]) => [
          name,
          (entry.assets ?? []).map((asset) => asset.name),
        ]),
      );
      // What each lazily loaded part (import() with a webpackChunkName) downloads in all.
      const groups = Object.fromEntries(
        Object.entries(json.namedChunkGroups ?? {}).map(([name, group]) => [
          name,
          (group.assets ?? []).map((asset) => asset.name),
        ]),
      );
      const chunks = (json.chunks ?? []).map((chunk) => ({
        names: chunk.names ?? [],
        initial: chunk.initial ?? false,
        files: chunk.files ?? [],
      }));
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(
        path.join(outDir, 'build-stats.json'),
        JSON.stringify({ entrypoints, groups, chunks }, null, 2),
      );
    });
  }
}

/**
 * Writes dist/_headers, the security and cache headers Cloudflare Pages and Netlify send with
 * the app: the same ones the Node server sends (server/securityHeaders.ts).
 */
class HeadersFilePlugin {
  constructor(private readonly options: SecurityHeaderOptions) {}

  apply(compiler: Compiler): void {
    compiler.hooks.thisCompilation.tap('HeadersFilePlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'HeadersFilePlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const text = headersFile(securityHeaders(this.options));
          compilation.emitAsset('_headers', new sources.RawSource(text));
        },
      );
    });
  }
}

export default (_env: unknown, argv: { mode?: Configuration['mode'] }): Configuration => {
  const production = argv.mode !== 'development';
  // Read first, so that a CONNECT_SRC or SUPABASE_URL that is not an origin stops the build.
  const headerOptions = builtHeaderOptions(process.env);
  const devServer: DevServerConfiguration = {
    port: Number(process.env.PORT ?? 8080),
    historyApiFallback: true,
    hot: true,
    proxy: [{ context: ['/rest', '/functions', '/health'], target: backendUrl }],
  };
  return {
    mode: production ? 'production' : 'development',
    entry: { main: './src/index.tsx' },
    output: {
      path: outDir,
      publicPath: '/',
      // Six hex digits of the content's hash (not eight): the runtime carries the hash of every
      // chunk it may load, and a whole game over the wire has no bytes to spare (issue 41). A
      // name keeps them apart; a change of a chunk meets its old hash once in 16 million.
      filename: production ? 'assets/[name].[contenthash:6].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:6].js' : 'assets/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
      clean: true,
    },
    // No source maps in production: the built app is served as it is, never its sources.
    devtool: production ? false : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs'],
      alias: {
        // Catalogues are compiled to ASTs at build time (npm run intl:compile), so the
        // ICU parser is not needed in the browser.
        '@formatjs/icu-messageformat-parser': '@formatjs/icu-messageformat-parser/no-parser.js',
        ...(production ? reactRouterProductionBuild : {}),
      },
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          loader: 'esbuild-loader',
          // ES2022 syntax as written (class fields, ??=): the code already needs ES2022's
          // built-ins (Array.prototype.at, Object.hasOwn), so no browser that runs it is left
          // out, and a whole game is 0.6 KB lighter over the wire than with es2020's rewrites.
          options: { target: 'es2022', jsx: 'automatic' },
        },
        // React Router's components and contexts marked pure, so the unused ones are dropped.
        {
          test: /[\\/]node_modules[\\/]react-router[\\/]dist[\\/]production[\\/][^\\/]+\.mjs$/,
          loader: path.join(root, 'scripts/pureReactRouter.ts'),
        },
        {
          test: /\.css$/,
          use: [
            MiniCssExtractPlugin.loader,
            { loader: 'css-loader', options: { importLoaders: 0 } },
          ],
        },
        { test: /\.(woff2?|ttf|otf)$/, type: 'asset/resource' },
        { test: /\.(png|svg|jpg|webp)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({ template: './public/index.html', favicon: './public/favicon.svg' }),
      new MiniCssExtractPlugin({
        filename: production ? 'assets/[name].[contenthash:6].css' : 'assets/[name].css',
        chunkFilename: production ? 'assets/[name].[contenthash:6].css' : 'assets/[name].css',
      }),
      new CopyWebpackPlugin({
        patterns: [{ from: 'public', to: '.', globOptions: { ignore: ['**/index.html'] } }],
      }),
      new BuildStatsPlugin(),
      ...(production && !devtoolsBuild ? precompressed : []),
      ...(production ? [new HeadersFilePlugin(headerOptions)] : []),
      // Where the backend is, fixed at build time; empty URL means the server of the page.
      new DefinePlugin({
        'process.env.SUPABASE_URL': JSON.stringify(process.env.SUPABASE_URL ?? ''),
        // The project's publishable key (SUPABASE_ANON_KEY: the legacy name, still read).
        'process.env.SUPABASE_PUBLISHABLE_KEY': JSON.stringify(
          process.env.SUPABASE_PUBLISHABLE_KEY ||
            process.env.SUPABASE_ANON_KEY ||
            DEFAULT_PUBLISHABLE_KEY,
        ),
        'process.env.REDUX_DEVTOOLS': JSON.stringify(process.env.REDUX_DEVTOOLS ?? ''),
        // The player servers the build's policy allows (src/features/llm/connectPage.ts).
        'process.env.CONNECT_SRC': JSON.stringify(headerOptions.connectSources.join(' ')),
      }),
    ],
    optimization: {
      runtimeChunk: 'single',
      minimize: production && !devtoolsBuild,
      // Terser's third pass still finds something: 0.2 KB less over the wire in a whole game
      // than webpack's two. (pure_getters: true saved 0.3 KB more, but drops a property read
      // kept for its side effect, such as a forced layout; ecma: 2020 saved nothing.)
      minimizeOptions: { javascript: { compress: { passes: 3 } } },
      // Exports named by how often they are used (a, b, ...) rather than by a hash of their
      // names: 1.9 KB less over the wire across the build, about 1.5 KB of it in a whole game.
      // The price is that a changed export may rename others in the same module, so a release
      // reloads a little more from the cache; moduleIds: 'size' saved 0.2 KB more for far more
      // of that, and is not taken.
      mangleExports: 'size',
      minimizer: ['...', new EsbuildPlugin({ include: /\.css$/, css: true })],
      // Code two lazy parts share goes in a chunk of its own once it is 2 KB (webpack's default
      // is 20 KB): below that it is copied into each part. At 20 KB a whole game downloaded the
      // API key form, the providers and their styles twice (8 KB); 4 KB copied 0.3 KB more than
      // 2 KB does (199.8 against 199.5 KB over the wire with cloud saves and publishing in); 8 KB
      // copies 1.6 KB again (measured with `npm run bench bundle`).
      splitChunks: {
        chunks: splitForEveryGame,
        minSize: 2000,
        cacheGroups: {
          // The backend API every page of the backend injects its endpoints into
          // (src/api/baseApi.ts) goes with RTK Query, which each of those pages loads anyway: on
          // its own it is under 2 KB, so it was copied into the leaderboard's, the profile's and
          // the game's parts (0.5 KB more over the wire in a whole game with both pages).
          backendApi: {
            test: /[\\/](src[\\/]api[\\/]baseApi\.ts$|node_modules[\\/](@reduxjs[\\/]toolkit[\\/]dist[\\/]query|reselect|@standard-schema)[\\/])/,
            chunks: splitForEveryGame,
            enforce: true,
            name: 'backend-api',
          },
          // The story's rules and words the game's flows, the saved stories' flows and the
          // story's panels share (the engine, the prompts, the story reader): one chunk, not the
          // four or five small ones splitChunks would make of them, which a whole game downloads
          // all of anyway (compressed apart, they cost 0.2 KB more over the wire).
          storyCore: {
            test: /[\\/]src[\\/](engine[\\/](?!data[\\/])|features[\\/]llm[\\/]prompts[\\/](?!kr\.ts)|features[\\/]game[\\/]story[\\/])/,
            chunks: splitForEveryGame,
            enforce: true,
            name: 'story-core',
          },
          // webpack's own default group, but for the pieces of the story both the game and a
          // published story's page show, which are copied into each (WRITTEN_STORY above).
          default: {
            idHint: '',
            reuseExistingChunk: true,
            minChunks: 2,
            priority: -20,
            test: (module: Module) => !WRITTEN_STORY.test(module.nameForCondition() ?? ''),
          },
        },
      },
    },
    performance: { hints: false },
    devServer,
    stats: production ? 'errors-warnings' : 'minimal',
  };
};
