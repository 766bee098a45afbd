/**
 * Fault: anyone could block a wallet's sign-in by asking for its nonce over and over, since each
 * request replaced the one pending nonce. A stranger now floods nonce requests for the owner's
 * address between the owner's nonce and login, on each database; the owner must still sign in,
 * and the signature must still work only once.
 */
import { Wallet } from 'ethers';
import { DATABASE_START_TIMEOUT_MS, testBackends } from '../server/support/databases';
import { postLogin, signedLogin, startTestServer } from '../server/support/testServer';
import { count, recordFinding } from './support/findings';

/** Twice what the per-address sign-in limit lets one address ask for in a minute. */
const STRANGER_REQUESTS = 60;

describe.each(testBackends())('sign-in under a nonce flood on $name', (database) => {
  test(
    'the owner signs in while a stranger asks for nonces for the same address',
    async () => {
      const server = await startTestServer(database, { SIGN_IN_RATE_LIMIT: '1000' });
      try {
        const owner = Wallet.createRandom();
        const login = await signedLogin(server, owner);
        const strangerNonces = new Set<string>();
        for (let i = 0; i < STRANGER_REQUESTS; i += 1) {
          const { data, error } = await server.backend.anon.rpc('create_user_if_not_exists', {
            p_wallet_address: owner.address.toLowerCase(),
          });
          if (error) throw new Error(`nonce request failed: ${error.message}`);
          strangerNonces.add((data as { nonce: string }[])[0]!.nonce);
        }
        const signIn = await postLogin(server, login);
        const replay = await postLogin(server, login);
        const held = recordFinding({
          fault: 'nonce',
          check: `stranger flood on ${database.name}`,
          figures: {
            'nonces the stranger was issued in between': count(strangerNonces.size),
            "owner's login": String(signIn.status),
            'the same signature again': String(replay.status),
          },
          held:
            strangerNonces.size === STRANGER_REQUESTS &&
            signIn.status === 200 &&
            replay.status === 401,
        });
        expect({ signIn: signIn.status, replay: replay.status }).toEqual({
          signIn: 200,
          replay: 401,
        });
        expect(held).toBe(true);
      } finally {
        await server.close();
      }
    },
    DATABASE_START_TIMEOUT_MS,
  );
});
