import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

const root = path.dirname(fileURLToPath(import.meta.url));
const features = readdirSync(path.join(root, 'src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * What src/app may import of a feature besides its index.ts: the entry modules kept out of the
 * index so that they load apart, each named here. Pages and views loaded lazily by the routes,
 * in chunks of their own; the saga loaders of the home bundle, which fetch the flows on demand;
 * the slice and the browser's own clients for the store and the saga context, so that a store
 * made outside the page (a test's, the bench's) loads no feature's views with them.
 */
const appEntries = {
  game: ['GamePage.tsx', 'gameSagaLoader.ts', 'views/ApiKeyView.tsx'],
  leaderboard: ['LeaderboardPage.tsx'],
  pictures: ['pictureSlots.tsx', 'picturesSagaLoader.ts', 'picturesSlice.ts'],
  llm: ['browserModelClient.ts', 'connectPage.ts', 'localNetwork.ts', 'typedKey.ts'],
  profile: ['ProfilePage.tsx'],
  settings: ['views.ts'],
  stories: [
    'browserContext.ts',
    'published/PublishedStoryPage.tsx',
    'storiesSagaLoader.ts',
    'storiesSlice.ts',
  ],
  wallet: ['environment.ts'],
};
const appImports = features.flatMap((feature) => [
  `./${feature}/index.ts`,
  ...(appEntries[feature] ?? []).map((entry) => `./${feature}/${entry}`),
]);
for (const entry of appImports) {
  // A name left behind by a move would open nothing and say nothing: it must name a module.
  if (!existsSync(path.join(root, 'src/features', entry))) {
    throw new Error(`eslint.config.mjs names an entry module that is not there: ${entry}`);
  }
}

/**
 * What a feature offers the others: its index (state, events, selectors, flows; no stylesheet, so
 * Node tools import it too), and, where it has views another feature's page shows as well,
 * sharedViews.ts (src/features/game/sharedViews.ts); where a worker needs some of it,
 * workerParts.ts, the plain code a worker may load without the rest (src/features/llm/workerParts.ts).
 */
const PUBLIC_ENTRIES = ['index.ts', 'sharedViews.ts', 'workerParts.ts'];

/**
 * The walls between the parts of the house (DESIGN.md, layout), by where a file is, at any depth:
 * each zone forbids files under `target` to import anything under `from` (type imports too).
 * Dependencies point one way: engine, shared code and the backend clients <- features <- app,
 * with the server beside the SPA, and what both need in common/.
 */
const walls = [
  {
    target: 'src/engine',
    from: ['src/app', 'src/features', 'src/shared', 'src/api'],
    message: "The engine is the game's rules: it imports nothing of the app, features or clients.",
  },
  ...features.map((feature) => ({
    target: `src/features/${feature}`,
    from: 'src/features',
    except: [
      `./${feature}`,
      ...features.flatMap((other) => PUBLIC_ENTRIES.map((entry) => `./${other}/${entry}`)),
    ],
    message: "Import another feature through its index ('../otherFeature') or its sharedViews.ts.",
  })),
  {
    target: 'src/features',
    from: 'src/app',
    message: 'The app puts the features together; a feature never imports it (slots, src/shared).',
  },
  {
    target: 'src/app',
    from: 'src/features',
    except: appImports,
    message:
      'The app imports a feature through its index, or an entry module named in eslint.config.mjs (appEntries).',
  },
  {
    target: ['src/shared', 'src/api'],
    from: ['src/features', 'src/app'],
    message: 'Shared code and the backend clients import no feature and not the app.',
  },
  {
    target: 'src',
    from: ['server', 'supabase'],
    message:
      'The SPA imports neither the server nor the Edge Functions: what both need lives in common/.',
  },
  {
    target: 'server',
    from: 'src',
    message: 'The server imports no SPA module: what both need lives in common/.',
  },
  {
    // Deployed on their own (Deno, their deno.json): their shared code is functions/_shared,
    // the packages their deno.json names, and common/.
    target: 'supabase/functions',
    from: ['src', 'server'],
    message:
      'An Edge Function imports neither the SPA nor the server: what both need lives in common/.',
  },
  {
    target: 'common',
    from: ['src', 'server', 'supabase'],
    message: 'common/ is what the SPA and the server share: it imports neither.',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'test-results/', 'data/', 'src/app/intl/compiled/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always'],
      'no-console': ['warn', { allow: ['warn', 'error'] }],
    },
  },
  {
    // A house without circles: no module imports, through any path (dynamic imports included),
    // one that imports it back. The rule follows runtime imports; `npm run lint` also runs
    // scripts/imports/cycles.ts, which counts `import type` too.
    files: ['src/**/*.{ts,tsx}', 'server/**/*.ts', 'common/**/*.ts', 'supabase/functions/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript parser for the modules the rules follow, and TypeScript's resolution.
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver()],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: walls }],
    },
  },
  {
    // One idiom for the store in every view: the hooks of src/shared/hooks.ts, typed by the
    // selector (the engine's own block below forbids react-redux altogether).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/shared/hooks.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-redux',
              importNames: ['useSelector', 'useDispatch', 'useStore'],
              message: 'Use useAppSelector, useAppDispatch or useAppStore (src/shared/hooks.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // The engine is the game's rules: pure functions, no UI, no state container, no I/O.
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-*', '@reduxjs/*', 'redux*', 'idb', 'ethers', '@supabase/*'],
              message: 'The engine is pure: no UI, store or I/O libraries.',
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'Math',
          property: 'random',
          message: 'Rules take the random source as a parameter.',
        },
      ],
    },
  },
  {
    // Servers, scripts and tests print; an Edge Function's console is its log on Supabase.
    files: [
      'server/**/*.ts',
      'scripts/**/*.ts',
      'test/**/*.{ts,tsx}',
      '*.config.{ts,mjs}',
      'supabase/functions/**/*.ts',
    ],
    rules: { 'no-console': 'off' },
  },
  {
    // expectSaga's run() stops the saga after 250 ms of wall clock and says so only as a
    // warning: on a loaded machine a saga doing real IndexedDB work is cut short and its test
    // fails by chance. A saga that ends by itself runs with run(false); one that waits for ever
    // says how it ends (silentRun for a watcher, a dispatched event for a flow).
    files: ['test/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='run'][arguments.length=0]",
          message:
            'expectSaga(...).run() ends on a 250 ms wall clock: use run(false) for a saga that ends by itself.',
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', process: 'readonly' },
    },
  },
  prettier,
);
