/**
 * Limits for a loaded two-core machine (CI and the machines tests share): a unit test may take
 * 30 s before jest calls it stuck (its default is 5 s), and a screen test waits up to 10 s for
 * what it looks for (Testing Library's default is 1 s; a list read from IndexedDB through the
 * flows, behind a lazily loaded part, takes longer when another test run shares the cores).
 * Nothing here makes a test weaker: each still fails on what it checks.
 */
import type * as TestingLibrary from '@testing-library/dom';

jest.setTimeout(30_000);

if (typeof document !== 'undefined') {
  // Only screen tests (a jsdom environment) load Testing Library.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const dom = require('@testing-library/dom') as typeof TestingLibrary;
  dom.configure({ asyncUtilTimeout: 10_000 });
}
