import { startServer } from './support/server';

/** One server for the whole browser suite, started the way `npm start` starts it. */
export default async function globalSetup(): Promise<void> {
  const server = await startServer();
  process.env.E2E_BASE_URL = server.url;
  (globalThis as { __E2E_SERVER__?: unknown }).__E2E_SERVER__ = server;
}
