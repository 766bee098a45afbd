import { prepareDataTemplate, startServer } from './support/server';

/**
 * One server for the whole browser suite, started the way `npm start` starts it. The database
 * template every server of the run starts from is made first, by a real server's first start on
 * an empty data directory (as a new player's machine has it): making a PGlite database costs
 * about 6 s of CPU, so it is made once.
 */
export default async function globalSetup(): Promise<void> {
  await prepareDataTemplate();
  // Many sign-ins from one address (127.0.0.1): the per-IP limit would get in the way.
  const server = await startServer({ SIGN_IN_RATE_LIMIT: '1000' });
  process.env.E2E_BASE_URL = server.url;
  (globalThis as { __E2E_SERVER__?: unknown }).__E2E_SERVER__ = server;
}
