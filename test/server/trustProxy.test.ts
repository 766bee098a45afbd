/**
 * Issue 29, "Behind a proxy": TRUST_PROXY decides whose X-Forwarded-For names the client, so
 * that the sign-in limit (per address) and the logs see players rather than the proxy. The real
 * server (buildServer) over an in-memory PGlite; requests come from the socket address inject
 * is given.
 */
import type { FastifyInstance } from 'fastify';
import { TokenAuthority, newServerKeys } from '../../server/auth';
import { buildServer } from '../../server/app';
import { readConfig, trustProxyOf } from '../../server/config';
import { migrate, type Database } from '../../server/db';
import { DATABASE_START_TIMEOUT_MS, openEmptyPglite } from './support/databases';
import { SERVER_TIMEOUT_MS, STOP_TIMEOUT_MS } from '../support/timeouts';

const PROXY = '10.0.0.2';
let db: Database;
const servers: FastifyInstance[] = [];

beforeAll(async () => {
  db = await openEmptyPglite();
  await migrate(db);
}, DATABASE_START_TIMEOUT_MS);
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await db.close();
}, STOP_TIMEOUT_MS);

/** A server with this TRUST_PROXY and a sign-in limit of one request a minute. */
async function serverTrusting(trustProxy: string | undefined): Promise<FastifyInstance> {
  const config = readConfig({
    SERVE_APP: 'false',
    LOG_LEVEL: 'silent',
    SIGN_IN_RATE_LIMIT: '1',
    ...(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }),
  });
  const server = await buildServer(config, {
    db,
    tokens: await TokenAuthority.create(newServerKeys(config.publishableKey)),
  });
  // What the server takes for the client's address: the one the limiter and the logs use.
  server.get('/test-client-address', async (request) => ({ ip: request.ip }));
  servers.push(server);
  return server;
}

const clientAddress = async (server: FastifyInstance, forwardedFor?: string) => {
  const response = await server.inject({
    url: '/test-client-address',
    remoteAddress: PROXY,
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });
  return (response.json() as { ip: string }).ip;
};

/** A nonce request as a client behind the proxy makes it: its status. */
const signInFrom = async (server: FastifyInstance, client: string) =>
  (
    await server.inject({
      method: 'POST',
      url: '/functions/v1/wallet-login',
      remoteAddress: PROXY,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
      body: '{}',
    })
  ).statusCode;

describe('off (the default)', () => {
  test(
    'the socket address, whatever X-Forwarded-For claims',
    async () => {
      const server = await serverTrusting(undefined);
      expect(await clientAddress(server)).toBe(PROXY);
      expect(await clientAddress(server, '203.0.113.7')).toBe(PROXY);
    },
    SERVER_TIMEOUT_MS,
  );

  test(
    'so every client behind a proxy shares one sign-in limit',
    async () => {
      const server = await serverTrusting('false');
      expect(await signInFrom(server, '203.0.113.7')).toBe(400);
      expect(await signInFrom(server, '198.51.100.9')).toBe(429);
    },
    SERVER_TIMEOUT_MS,
  );
});

describe('1: the proxy in front is trusted', () => {
  test(
    'the address the proxy appended, not what the client wrote before it',
    async () => {
      const server = await serverTrusting('1');
      expect(await clientAddress(server, '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
      expect(await clientAddress(server)).toBe(PROXY);
    },
    SERVER_TIMEOUT_MS,
  );

  test(
    'each client behind the proxy has a sign-in limit of its own',
    async () => {
      const server = await serverTrusting('1');
      expect(await signInFrom(server, '203.0.113.7')).toBe(400);
      expect(await signInFrom(server, '198.51.100.9')).toBe(400);
      expect(await signInFrom(server, '203.0.113.7')).toBe(429);
    },
    SERVER_TIMEOUT_MS,
  );
});

describe("the proxy's address", () => {
  test(
    'a request from it is believed; one from elsewhere is not',
    async () => {
      const server = await serverTrusting('10.0.0.0/8, 127.0.0.1');
      expect(await clientAddress(server, '6.6.6.6, 203.0.113.7')).toBe('203.0.113.7');
      const direct = await server.inject({
        url: '/test-client-address',
        remoteAddress: '198.51.100.9',
        headers: { 'x-forwarded-for': '6.6.6.6' },
      });
      expect((direct.json() as { ip: string }).ip).toBe('198.51.100.9');
    },
    SERVER_TIMEOUT_MS,
  );
});

describe('reading TRUST_PROXY', () => {
  test.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['0', false],
    ['true', true],
    ['2', 2],
    ['10.0.0.2', ['10.0.0.2']],
    [' 10.0.0.0/8 , fd00::/8,loopback ', ['10.0.0.0/8', 'fd00::/8', 'loopback']],
  ])('%s -> %j', (value, trust) => {
    expect(trustProxyOf(value)).toEqual(trust);
  });

  test.each([
    'yes',
    '10.0.0.300',
    '10.0.0.0/33',
    '10.0.0.0/8/1',
    'fd00::/129',
    '-1',
    'proxy.example',
  ])("'%s' stops the server with the value", (value) => {
    expect(() => readConfig({ TRUST_PROXY: value })).toThrow(
      new RegExp(
        `^TRUST_PROXY must be true, a hop count, .* got '${value.replace(/[./]/g, '\\$&')}'`,
      ),
    );
  });
});
