/**
 * Fault: `npm test` failed on a fresh clone on a busy machine, because PGlite's start-up inside
 * jest hooks hit jest's default 5 s timeout, and CI ran neither the linters nor the type check.
 * Measured here: how long the embedded database takes to start and migrate on this machine,
 * against the timeout the suites give their start-up hooks; that every suite which starts a
 * database gives its hooks that timeout; and that CI runs lint and the type check.
 */
import fs from 'node:fs';
import path from 'node:path';
import { migrate, openDatabase } from '../../server/db';
import { DATABASE_START_TIMEOUT_MS, assertPgliteCanLoad } from '../server/support/databases';
import { ms, recordFinding } from './support/findings';

const projectRoot = path.resolve(__dirname, '..', '..');
const STARTS = 3;
/** The hooks' timeout must leave this much room over the slowest start measured. */
const HEADROOM = 3;

/** Test files that open a database (directly or through a test server) in a hook. */
function suitesStartingADatabase(): string[] {
  const dir = path.join(projectRoot, 'test', 'server');
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.test.ts'))
    .filter((name) =>
      /startTestServer\(|testBackends\(\)/.test(fs.readFileSync(path.join(dir, name), 'utf8')),
    );
}

test('the embedded database starts well inside the hooks’ timeout, and CI lints and type-checks', async () => {
  assertPgliteCanLoad();
  const startUps: number[] = [];
  for (let i = 0; i < STARTS; i += 1) {
    const began = performance.now();
    const db = await openDatabase({ dataDir: null });
    await migrate(db);
    startUps.push(performance.now() - began);
    await db.close();
  }
  const slowest = Math.max(...startUps);

  const suites = suitesStartingADatabase();
  const withoutTimeout = suites.filter(
    (name) =>
      !fs
        .readFileSync(path.join(projectRoot, 'test', 'server', name), 'utf8')
        .includes('DATABASE_START_TIMEOUT_MS'),
  );
  const ci = fs.readFileSync(path.join(projectRoot, '.ci', 'run'), 'utf8');
  // Each a command of its own line (the linters may run in the background, beside the tests).
  const ciSteps = ['npm ci', 'npm test', 'npm run lint', 'npm run typecheck'];
  const ciMissing = ciSteps.filter(
    (step) => !ci.split('\n').some((line) => new RegExp(`^${step}( |$)`).test(line.trim())),
  );

  const held = recordFinding({
    fault: 'busyMachine',
    check: 'database start-up against the hooks’ timeout; CI steps',
    figures: {
      'PGlite start + migrations (each run)': startUps.map(ms).join(', '),
      'hooks’ timeout (DATABASE_START_TIMEOUT_MS)': ms(DATABASE_START_TIMEOUT_MS),
      'headroom over the slowest start': `${(DATABASE_START_TIMEOUT_MS / slowest).toFixed(1)}x (at least ${HEADROOM}x)`,
      'server suites starting a database': String(suites.length),
      'of them without the timeout': withoutTimeout.join(', ') || 'none',
      '.ci/run steps missing': ciMissing.join(', ') || 'none',
    },
    held:
      slowest * HEADROOM <= DATABASE_START_TIMEOUT_MS &&
      suites.length > 0 &&
      withoutTimeout.length === 0 &&
      ciMissing.length === 0,
  });
  expect(slowest * HEADROOM).toBeLessThanOrEqual(DATABASE_START_TIMEOUT_MS);
  expect(withoutTimeout).toEqual([]);
  expect(ciMissing).toEqual([]);
  expect(held).toBe(true);
});
