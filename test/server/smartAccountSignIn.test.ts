/**
 * Smart-account sign-in through the local server (the handler the Edge Function serves too),
 * against a real local EVM: a deployed ERC-1271 account and an undeployed ERC-6492 one sign in;
 * forged, misbuilt, unconfigured, replayed and chain-down sign-ins are refused, each with its
 * own answer. The same suite runs under Deno in test/functions/walletLogin.deno.test.ts.
 */
import { type LocalChain, startLocalChain } from '../fixtures/chain/localChain';
import { type ChainGate, startChainGate } from './support/chainGate';
import { testBackends } from './support/databases';
import { describeSmartAccountSignIns } from './support/smartAccountSignIns';
import { type TestServer, startTestServer } from './support/testServer';
import {
  CHAIN_START_TIMEOUT_MS,
  DATABASE_START_TIMEOUT_MS,
  STOP_TIMEOUT_MS,
} from '../support/timeouts';

const database = testBackends().at(-1)!;

describe(`smart-account sign-in through the local server on ${database.name}`, () => {
  let chain: LocalChain;
  let gate: ChainGate;
  let server: TestServer;

  beforeAll(async () => {
    chain = await startLocalChain();
    gate = await startChainGate(chain.url);
    server = await startTestServer(database, {
      SIGN_IN_RATE_LIMIT: '1000',
      CHAIN_RPC_URLS: `${chain.chainId}=${gate.url}`,
    });
  }, CHAIN_START_TIMEOUT_MS + DATABASE_START_TIMEOUT_MS);

  afterAll(async () => {
    await server?.close();
    await gate?.close();
    await chain?.close();
  }, STOP_TIMEOUT_MS);

  describeSmartAccountSignIns(
    () => server,
    () => ({ chain, gate }),
  );
});
