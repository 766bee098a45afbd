/**
 * Part of `npm run lint`: `deno lint` over supabase/functions, and `deno check` of each function
 * with its own deno.json (what `supabase functions deploy` bundles), under the Edge Runtime's Deno.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { DENO_ENV, FUNCTIONS_DIR, denoExecutable, functionNames } from './server';

const executable = denoExecutable();

function deno(args: string[]): void {
  const { status, error } = spawnSync(executable, args, {
    stdio: 'inherit',
    env: { ...process.env, ...DENO_ENV },
  });
  if (error) throw new Error(`Could not run Deno (${executable}): ${error.message}; run npm ci`);
  if (status !== 0) process.exit(status ?? 1);
}

deno(['lint', FUNCTIONS_DIR]);
for (const name of functionNames()) {
  const folder = path.join(FUNCTIONS_DIR, name);
  deno(['check', '--config', path.join(folder, 'deno.json'), path.join(folder, 'index.ts')]);
}
deno(['check', path.join(FUNCTIONS_DIR, '_host', 'edgeHost.ts')]);
console.log(`deno lint and deno check passed: ${functionNames().join(', ')}`);
