/**
 * `npm run deploy:rehearse` in the test run (issue 29): the README's deploy steps, offline, on
 * this machine's PostgreSQL. The pinned Supabase CLI pushes the migrations to a database owned
 * by a role that is no superuser, the server and the Deno function run on it, a wallet signs in
 * and saves a result, and a flood of sign-ins from one address is refused past the limit.
 */
import fs from 'node:fs';
import path from 'node:path';
import { rehearsalProblems, rehearseDeploy } from '../../scripts/deploy/rehearse';
import { DATABASE_START_TIMEOUT_MS, postgresAdminUrl } from '../server/support/databases';

/** The CLI runs three times, Deno starts once (its first run here downloads packages). */
const REHEARSAL_TIMEOUT_MS = DATABASE_START_TIMEOUT_MS + 240_000;

test(
  'the deploy rehearsal goes as a deploy should',
  async () => {
    const adminUrl = postgresAdminUrl() ?? '';
    if (!adminUrl) {
      throw new Error(
        'The deploy rehearsal needs PostgreSQL: start the machine’s (127.0.0.1:5432) or set TEST_POSTGRES_URL',
      );
    }
    const lines: string[] = [];
    const report = await rehearseDeploy({ adminUrl, say: (line) => lines.push(line) });
    expect({ problems: rehearsalProblems(report) }).toEqual({ problems: [] });
    expect(report.pushed).toContain('20261126130000_sign_in_limits.sql');
    expect(report.appliedByServer).toEqual([]);
    expect(report.tokenKeyId).toBe(report.signingKeyId);
    expect(report.floodLogins).toEqual([429, 429]);
    // The README's commands, as the rehearsal ran them.
    expect(lines).toEqual(
      expect.arrayContaining([
        '$ npx supabase db push --remote=<database URL> --yes',
        '$ npx supabase gen signing-key --algorithm ES256',
      ]),
    );
  },
  REHEARSAL_TIMEOUT_MS,
);

test('the README deploys with the commands the rehearsal runs', () => {
  const readme = fs.readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
  const deploy = readme.slice(readme.indexOf('### Deploying to Supabase'));
  for (const command of [
    'npx supabase db push --remote',
    'npx supabase gen signing-key --algorithm ES256',
    'npx supabase secrets set WALLET_LOGIN_SIGNING_JWK=',
    'npx supabase functions deploy wallet-login --use-api',
    'npm run deploy:rehearse',
  ]) {
    expect(deploy).toContain(command);
  }
  // The bare CLI (a global install, perhaps another version) is never what the steps run.
  expect(deploy.slice(0, deploy.indexOf('### Self-hosting'))).not.toMatch(/^\s*supabase /m);
});
