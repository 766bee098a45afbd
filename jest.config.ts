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
/** react-intl, formatjs and jose ship only ES modules; jest runs CommonJS, so they are compiled too. */
const transformIgnorePatterns = [
  '/node_modules/(?!(react-intl|intl-messageformat|@formatjs|jose)/)',
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
    },
  ],
};

export default config;
