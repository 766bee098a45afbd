/**
 * Smart-account sign-in as shared test suites, against a real local EVM (Hardhat's node) with
 * real account contracts (test/fixtures/chain): the local server runs them
 * (test/server/smartAccountSignIn.test.ts) and so does the Edge Function under Deno
 * (test/functions/walletLogin.deno.test.ts), since both serve the same handler. The server under
 * test has CHAIN_RPC_URLS naming the chain through a gate the tests can take down.
 */
import { Wallet } from 'ethers';
import { decodeJwt } from 'jose';
import type { LocalChain } from '../../fixtures/chain/localChain';
import {
  SmartAccount,
  createAccountCalldata,
  wrapErc6492,
} from '../../fixtures/chain/smartAccount';
import type { ChainGate } from './chainGate';
import { type BackendTarget, type MessageSigner, postLogin, signedLogin } from './testServer';

export interface ChainUnderTest {
  chain: LocalChain;
  /** The endpoint CHAIN_RPC_URLS names for the chain: the node, through a gate. */
  gate: ChainGate;
}

/** A chain id no CHAIN_RPC_URLS entry names in these tests (Base's). */
const UNCONFIGURED_CHAIN = 8453;

export function describeSmartAccountSignIns(
  target: () => BackendTarget,
  onChain: () => ChainUnderTest,
): void {
  const newAccount = () => SmartAccount.create(onChain().chain, Wallet.createRandom(), 7n);
  /** The account's signatures as an undeployed one gives them: wrapped for ERC-6492. */
  const counterfactual = (account: SmartAccount): MessageSigner => ({
    address: account.address,
    signMessage: (message) => account.signMessage6492(message),
  });
  const login = (signer: MessageSigner, chainId = onChain().chain.chainId) =>
    signedLogin(target(), signer, { message: { chainId } });

  afterEach(() => {
    onChain().gate.state = 'up';
  });

  describe('smart accounts sign in', () => {
    test('a deployed ERC-1271 account, with a token for the account itself', async () => {
      const account = await newAccount();
      await account.deploy();
      const { status, body } = await postLogin(target(), await login(account));
      expect(status).toBe(200);
      expect(body.wallet_address).toBe(account.address.toLowerCase());
      expect(decodeJwt(body.access_token as string).wallet_address).toBe(
        account.address.toLowerCase(),
      );
    });

    test('an account not deployed yet (ERC-6492), and it stays undeployed', async () => {
      const account = await newAccount();
      const { status, body } = await postLogin(target(), await login(counterfactual(account)));
      expect(status).toBe(200);
      expect(body.wallet_address).toBe(account.address.toLowerCase());
      // The deployment was simulated in an eth_call, never sent.
      expect(await account.isDeployed()).toBe(false);
    });

    test('a key signs in without the chain: its endpoint is down and nothing asks it', async () => {
      const { gate } = onChain();
      gate.state = 'down';
      const before = gate.forwarded;
      const { status } = await postLogin(target(), await login(Wallet.createRandom()));
      expect(status).toBe(200);
      // ... and on a chain with no endpoint at all.
      const elsewhere = await login(Wallet.createRandom(), UNCONFIGURED_CHAIN);
      expect((await postLogin(target(), elsewhere)).status).toBe(200);
      expect(gate.forwarded).toBe(before);
    });
  });

  describe('smart-account sign-in refuses', () => {
    test("another key's signature for a deployed account", async () => {
      const account = await newAccount();
      await account.deploy();
      const forged = await login({ address: account.address, signMessage: stranger });
      const response = await postLogin(target(), forged);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'invalid_signature' });
    });

    test("another key's signature in an ERC-6492 wrapper for the account", async () => {
      const account = await newAccount();
      const forged = await login({
        address: account.address,
        signMessage: async (message) => account.wrap6492(await stranger(message)),
      });
      const response = await postLogin(target(), forged);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'invalid_signature' });
    });

    test('an ERC-6492 wrapper whose factory call builds a different account', async () => {
      const account = await newAccount();
      const other = Wallet.createRandom();
      const misbuilt = await login({
        address: account.address,
        signMessage: async (message) =>
          wrapErc6492({
            factory: onChain().chain.factoryAddress,
            // The owner's own signature, but the deployment of another owner's account.
            factoryCalldata: createAccountCalldata(other.address, 7n),
            signature: await account.signMessage(message),
          }),
      });
      const response = await postLogin(target(), misbuilt);
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ code: 'invalid_signature' });
      expect(await account.isDeployed()).toBe(false);
    });

    test('an account on a chain the server has no endpoint for, saying which chain', async () => {
      const account = await newAccount();
      await account.deploy();
      const response = await postLogin(target(), await login(account, UNCONFIGURED_CHAIN));
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'chain_not_configured' });
      expect(response.body.message).toMatch(/chain 8453\b/);
    });

    test('a replayed smart-account sign-in (the nonce works once)', async () => {
      const account = await newAccount();
      const signed = await login(counterfactual(account));
      expect((await postLogin(target(), signed)).status).toBe(200);
      const replay = await postLogin(target(), signed);
      expect(replay.status).toBe(401);
      expect(replay.body.message).toMatch(/Nonce is unknown, used or expired/);
    });

    test('while the chain is down (503), keeping the nonce for when it is back', async () => {
      const account = await newAccount();
      await account.deploy();
      const signed = await login(account);
      onChain().gate.state = 'down';
      const refused = await postLogin(target(), signed);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ code: 'chain_unavailable' });
      expect(refused.body.message).toMatch(/answered HTTP 503/);
      onChain().gate.state = 'up';
      expect((await postLogin(target(), signed)).status).toBe(200);
    });

    test('while the chain does not answer at all, giving up after its timeout', async () => {
      const account = await newAccount();
      const signed = await login(counterfactual(account));
      onChain().gate.state = 'hang';
      const refused = await postLogin(target(), signed);
      expect(refused.status).toBe(503);
      expect(refused.body.message).toMatch(/timed out/);
    }, 30_000);
  });
}

/** A signature by a key that is no one's here. */
const stranger = (message: string) => Wallet.createRandom().signMessage(message);
