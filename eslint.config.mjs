import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

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
    // one that imports it back. The rule follows runtime imports; keep `import type` one-way too.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript parser for the modules the rule follows, and TypeScript's resolution.
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver()],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
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
            {
              group: ['../app/*', '../features/*', '**/app/**', '**/features/**'],
              message: 'Dependencies point one way: engine <- features <- app.',
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
    // Features do not reach into each other's internals: import another feature's index.
    files: ['src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./\\.\\./features/|^\\.\\./[a-z]+/(?!index$).+',
              message: "Import another feature through its index ('../otherFeature').",
            },
          ],
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
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', process: 'readonly' },
    },
  },
  prettier,
);
