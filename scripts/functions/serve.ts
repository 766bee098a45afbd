/**
 * `npm run functions:serve`: the Edge Functions under Deno 2.1 at
 * http://localhost:8090/functions/v1/<name> (FUNCTIONS_PORT overrides), calling the project at
 * SUPABASE_URL (default http://localhost:8080, the local server). Start the local server with
 * FUNCTIONS_URL=http://localhost:8090 to route the game's function calls here.
 */
import { readConfig } from '../../server/config';
import { functionNames, startFunctionsServer } from './server';

async function main() {
  const { dataDir } = readConfig();
  const port = Number(process.env.FUNCTIONS_PORT ?? 8090);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`FUNCTIONS_PORT must be a port number, got '${process.env.FUNCTIONS_PORT}'`);
  }
  const supabaseUrl = process.env.SUPABASE_URL ?? 'http://localhost:8080';
  console.log(
    `Starting ${functionNames().join(', ')} under Deno (the first start downloads packages)...`,
  );
  const server = await startFunctionsServer({ supabaseUrl, port, dataDir });
  console.log(`Edge Functions at ${server.url}/functions/v1/<name>, calling ${supabaseUrl}`);
  console.log(`Keys: the environment's where set, else those in ${dataDir}`);
  // Ctrl-C reaches the Deno processes too (one process group); SIGTERM is passed on by close().
  const shutdown = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
