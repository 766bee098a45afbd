/** @jest-config-loader esbuild-register */
import type { Config } from 'jest';

// ts-jest compiles each file on its own (isolatedModules in tsconfig): type errors are
// caught by `npm run typecheck`, and the suite stays fast on two cores.
const transform: Config['transform'] = {
  '^.+\\.[tj]sx?$': [
    'ts-jest',
    { tsconfig: { module: 'commonjs', jsx: 'react-jsx', allowJs: true } },
  ],
};
/**
 * react-intl, formatjs, jose and @noble/secp256k1 ship only ES modules; jest runs CommonJS, so
 * they are compiled too.
 */
const transformIgnorePatterns = [
  '/node_modules/(?!(react-intl|intl-messageformat|@formatjs|jose|@noble/secp256k1)/)',
];

const config: Config = {
  reporters: ['default', '<rootDir>/test/support/summaryReporter.cjs'],
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/test/**/*.test.ts?(x)'],
      testPathIgnorePatterns: ['<rootDir>/test/e2e/'],
      setupFiles: ['<rootDir>/test/support/setup.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/afterEnv.ts'],
      moduleNameMapper: { '\\.css$': '<rootDir>/test/support/styleStub.ts' },
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/test/e2e/**/*.e2e.ts'],
      globalSetup: '<rootDir>/test/e2e/globalSetup.ts',
      globalTeardown: '<rootDir>/test/e2e/globalTeardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/e2e/support/timeout.ts'],
      // A test that makes the app's store (devtools) reaches feature indexes with views in them.
      moduleNameMapper: { '\\.css$': '<rootDir>/test/support/styleStub.ts' },
    },
    {
      // npm run test:reliability: restarts, load, sign-in, headers, two tabs and fuzzing, each
      // recording its figures for docs/RELIABILITY.md (written by the global teardown).
      displayName: 'reliability',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/test/reliability/**/*.reliability.ts'],
      globalSetup: '<rootDir>/test/reliability/globalSetup.ts',
      globalTeardown: '<rootDir>/test/reliability/globalTeardown.ts',
      setupFiles: ['<rootDir>/test/support/setup.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/e2e/support/timeout.ts'],
      moduleNameMapper: { '\\.css$': '<rootDir>/test/support/styleStub.ts' },
    },
  ],
};

export default config;
