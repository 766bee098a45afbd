/**
 * The refusals sign-in owes a stranger, as shared test suites: the local server runs them
 * (test/server/security.test.ts) and so does the Edge Function under Deno
 * (test/functions/walletLogin.deno.test.ts), since both serve the same handler.
 */
import { Wallet } from 'ethers';
import { SignJWT, importJWK } from 'jose';
import { newSigningJwk } from '../../../server/auth';
import type { Database } from '../../../server/db';
import { DEFAULT_PUBLISHABLE_KEY } from '../../../src/api';
import type { SigningJwk } from '../../../supabase/functions/_shared/walletToken';
import { plausibleResult } from './results';
import { type BackendTarget, functionsBase, postLogin, signedLogin } from './testServer';

export interface SignInTarget extends BackendTarget {
  /** The database behind the REST API, for what no request can do (ageing a nonce). */
  db: Database;
}

export function describeSignInAttacks(target: () => SignInTarget): void {
  describe('sign-in refuses', () => {
    test('a replayed signature (the nonce works once)', async () => {
      const login = await signedLogin(target(), Wallet.createRandom());
      expect((await postLogin(target(), login)).status).toBe(200);
      const replay = await postLogin(target(), login);
      expect(replay.status).toBe(401);
      expect(replay.body.message).toMatch(/Nonce is unknown, used or expired/);
    });

    test('a nonce issued to another wallet', async () => {
      const owner = Wallet.createRandom();
      const { nonce } = await signedLogin(target(), owner);
      const thief = Wallet.createRandom();
      const login = await signedLogin(target(), thief, { message: { nonce } });
      expect((await postLogin(target(), login)).status).toBe(401);
      // ... and the owner's nonce is still there for the owner.
      const ownLogin = await signedLogin(target(), owner, { message: { nonce } });
      expect((await postLogin(target(), ownLogin)).status).toBe(200);
    });

    test('a nonce the server never issued', async () => {
      const login = await signedLogin(target(), Wallet.createRandom(), {
        message: { nonce: 'f00dfeedf00dfeedf00dfeedf00dfeed' },
      });
      const response = await postLogin(target(), login);
      expect(response.status).toBe(401);
      expect(response.body.message).toMatch(/Nonce is unknown/);
    });

    test('a message for another domain', async () => {
      const login = await signedLogin(target(), Wallet.createRandom(), {
        message: { domain: 'evil.example', uri: 'https://evil.example' },
      });
      const response = await postLogin(target(), login);
      expect(response.status).toBe(401);
      expect(response.body.message).toMatch(/another domain/);
    });

    test('a stale nonce', async () => {
      const login = await signedLogin(target(), Wallet.createRandom());
      await target().db.pool.query(
        "update public.sign_in_nonces set issued_at = now() - interval '11 minutes' where nonce = $1",
        [login.nonce],
      );
      expect((await postLogin(target(), login)).status).toBe(401);
    });

    test('a message issued long ago', async () => {
      const login = await signedLogin(target(), Wallet.createRandom(), {
        message: { issuedAt: new Date(Date.now() - 30 * 60 * 1000).toISOString() },
      });
      const response = await postLogin(target(), login);
      expect(response.status).toBe(401);
      expect(response.body.message).toMatch(/too old/);
    });

    test('an expired message', async () => {
      const login = await signedLogin(target(), Wallet.createRandom(), {
        message: { expirationTime: new Date(Date.now() - 1000).toISOString() },
      });
      const response = await postLogin(target(), login);
      expect(response.status).toBe(401);
      expect(response.body.message).toMatch(/expired/);
    });

    test('a signature from another key, which only a chain it has no endpoint for could vouch for', async () => {
      const owner = Wallet.createRandom();
      const login = await signedLogin(target(), owner, { signer: Wallet.createRandom() });
      const response = await postLogin(target(), login);
      // Were the account a contract (ERC-1271), its chain would decide; none is configured.
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ code: 'chain_not_configured' });
      expect(response.body.message).toMatch(/chain 1\b/);
      // The nonce was not spent on it: the owner's own signature still signs in.
      const own = { message: login.message, signature: await owner.signMessage(login.message) };
      expect((await postLogin(target(), own)).status).toBe(200);
    });

    test('a body that is not a signed message', async () => {
      const response = await postLogin(target(), { message: 'hello', signature: '0x12' });
      expect(response.status).toBe(400);
    });

    test('an oversize body', async () => {
      const response = await postLogin(target(), {
        message: 'x'.repeat(64 * 1024),
        signature: '0x',
      });
      expect(response.status).toBe(413);
    });

    test('a sign-in posted by another site, or not as JSON', async () => {
      const login = await signedLogin(target(), Wallet.createRandom());
      const post = (headers: Record<string, string>) =>
        fetch(`${functionsBase(target())}/wallet-login`, {
          method: 'POST',
          headers,
          body: JSON.stringify(login),
        });
      const fromStranger = await post({
        origin: 'https://evil.example',
        'content-type': 'application/json',
      });
      expect(fromStranger.status).toBe(403);
      expect(fromStranger.headers.get('access-control-allow-origin')).toBeNull();
      // text/plain is what a page may post across sites without asking first.
      expect((await post({ 'content-type': 'text/plain' })).status).toBe(415);
      // Neither spent the nonce: the site's own JSON sign-in still works.
      const own = await post({
        origin: new URL(target().url).origin,
        'content-type': 'application/json',
      });
      expect(own.status).toBe(200);
      expect(own.headers.get('access-control-allow-origin')).toBe(new URL(target().url).origin);
    });

    test("CORS answers the site's own origin only", async () => {
      const preflight = (origin: string) =>
        fetch(`${functionsBase(target())}/wallet-login`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'apikey, content-type',
          },
        });
      const own = await preflight(new URL(target().url).origin);
      expect(own.status).toBe(204);
      expect(own.headers.get('access-control-allow-origin')).toBe(new URL(target().url).origin);
      expect(own.headers.get('access-control-allow-headers')).toMatch(/apikey/);
      const stranger = await preflight('https://evil.example');
      expect(stranger.status).toBe(403);
      expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
}

/**
 * Tokens the REST API must refuse with 401: forged with every trick, or carrying an API key.
 * `signingJwk` is the key the server trusts, for forgeries that differ from a real token in one
 * claim only.
 */
export function describeTokenForgeries(
  target: () => BackendTarget & { signingJwk: SigningJwk },
  walletAddress: () => string,
): void {
  describe('forged tokens are refused with 401', () => {
    const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
    const claims = () => ({ role: 'authenticated', wallet_address: walletAddress() });
    const signWith = async (
      jwk: SigningJwk,
      { audience = 'authenticated', expires = '1h', extra = {} } = {},
    ) =>
      new SignJWT({ ...claims(), ...extra })
        .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'JWT' })
        .setAudience(audience)
        .setExpirationTime(expires)
        .sign(await importJWK({ ...jwk, key_ops: ['sign'] }, 'ES256'));
    const otherKey = (): SigningJwk => ({ ...newSigningJwk(), kid: target().signingJwk.kid });

    test.each([
      ['signed by another key under the same kid', () => signWith(otherKey())],
      ['for another audience', () => signWith(target().signingJwk, { audience: 'service' })],
      ['expired', () => signWith(target().signingJwk, { expires: '-1m' })],
      [
        'claiming service_role',
        () => signWith(target().signingJwk, { extra: { role: 'service_role' } }),
      ],
      [
        "with alg 'none'",
        async () =>
          `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ ...claims(), aud: 'authenticated' })}.`,
      ],
      [
        'HS256, keyed with the public key',
        async () => {
          const { x, y, kty, crv, kid } = target().signingJwk;
          return new SignJWT(claims())
            .setProtectedHeader({ alg: 'HS256', kid })
            .setAudience('authenticated')
            .setExpirationTime('1h')
            .sign(new TextEncoder().encode(JSON.stringify({ kty, crv, x, y })));
        },
      ],
      ['that is not a token at all', async () => 'not-a-token'],
      ['a key that is not the apikey sent', async () => 'sb_secret_guessed_guessed_guessed'],
    ])('%s', async (_name, makeToken) => {
      const response = await fetch(`${target().url}/rest/v1/game_results`, {
        method: 'POST',
        headers: {
          apikey: DEFAULT_PUBLISHABLE_KEY,
          'content-type': 'application/json',
          authorization: `Bearer ${await makeToken()}`,
        },
        body: JSON.stringify({
          wallet_address: walletAddress(),
          ...plausibleResult({ character: 'Forger' }),
        }),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual(
        expect.objectContaining({ code: expect.stringMatching(/^PGRST30[13]$/) }),
      );
    });
  });
}
