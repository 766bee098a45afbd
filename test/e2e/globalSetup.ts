import { prepareDataTemplate, startServer } from './support/server';

/**
 * One server for the whole browser suite, started the way `npm start` starts it, on an empty
 * data directory (the first start, as a new player's machine has it). The suites' own servers
 * start from a copy of a database already made (prepareDataTemplate).
 */
export default async function globalSetup(): Promise<void> {
  // Many sign-ins from one address (127.0.0.1): the per-IP limit would get in the way.
  const server = await startServer({ SIGN_IN_RATE_LIMIT: '1000' });
  process.env.E2E_BASE_URL = server.url;
  (globalThis as { __E2E_SERVER__?: unknown }).__E2E_SERVER__ = server;
  // After the global server, which therefore started empty.
  await prepareDataTemplate();
}
