/**
 * The modules the Edge Function and the local server share (supabase/functions/_shared), on
 * their own: the key and token format Supabase expects, and the project settings as Supabase
 * hands them to a function.
 */
import { createPublicKey, verify } from 'node:crypto';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { newSigningJwk } from '../../server/auth';
import {
  projectSecretKey,
  serviceHeaders,
  siteOrigins,
} from '../../supabase/functions/_shared/supabaseProject';
import {
  parseSigningJwk,
  publicJwk,
  walletTokenSigner,
  walletUserId,
} from '../../supabase/functions/_shared/walletToken';

describe('the signing key', () => {
  const key = newSigningJwk();

  test("takes the JWK 'supabase gen signing-key' prints, alone or in a one-key array", () => {
    expect(parseSigningJwk(JSON.stringify(key)).kid).toBe(key.kid);
    expect(parseSigningJwk(JSON.stringify([key])).kid).toBe(key.kid);
  });

  test.each([
    ['not JSON', 'ey...', /not JSON/],
    ['two keys', JSON.stringify([key, key]), /exactly one key/],
    ['an RSA key', JSON.stringify({ ...key, kty: 'RSA' }), /ES256 key/],
    ['another curve', JSON.stringify({ ...key, crv: 'P-384' }), /ES256 key/],
    ['for another algorithm', JSON.stringify({ ...key, alg: 'RS256' }), /not ES256/],
    ['the public half only', JSON.stringify(publicJwk(key)), /private key/],
    ['without a kid', JSON.stringify({ ...key, kid: undefined }), /no kid/],
  ])('refuses %s, saying why and never printing the key', (_name, text, reason) => {
    expect(() => parseSigningJwk(text)).toThrow(reason);
    try {
      parseSigningJwk(text);
    } catch (error) {
      expect(String(error)).not.toContain(key.d);
    }
  });

  test('its public half has no private part', () => {
    expect(publicJwk(key)).not.toHaveProperty('d');
    expect(publicJwk(key)).toEqual(expect.objectContaining({ kid: key.kid, alg: 'ES256' }));
  });
});

describe('the wallet token', () => {
  test("is ES256 under the key's kid, with the claims row-level security reads", async () => {
    const key = newSigningJwk();
    const signer = await walletTokenSigner(key);
    const now = Date.UTC(2026, 10, 25, 12);
    const { token, expiresAt } = await signer.issue('0xABab' + 'ab'.repeat(18), now);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: key.kid, typ: 'JWT' });
    const { payload } = await jwtVerify(token, await importJWK(publicJwk(key), 'ES256'), {
      currentDate: new Date(now),
    });
    expect(payload).toEqual({
      role: 'authenticated',
      aud: 'authenticated',
      wallet_address: '0x' + 'ab'.repeat(20),
      sub: '8e25388f-4078-5a5a-bb86-a39aa4169419',
      iat: now / 1000,
      exp: now / 1000 + 86_400,
    });
    expect(expiresAt).toBe(now / 1000 + 86_400);
    // Checked with Node's own crypto too, not only with the library that signed it.
    const [header, claims, signature] = token.split('.');
    const ok = verify(
      'sha256',
      Buffer.from(`${header}.${claims}`),
      { key: createPublicKey({ key: publicJwk(key), format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature!, 'base64url'),
    );
    expect(ok).toBe(true);
  });

  test("a wallet's user id is the UUIDv5 of its ethereum: URI, whatever the case", async () => {
    // Python's uuid.uuid5(uuid.NAMESPACE_URL, 'ethereum:0xabab...ab') gives this.
    const id = '8e25388f-4078-5a5a-bb86-a39aa4169419';
    expect(await walletUserId('0x' + 'ab'.repeat(20))).toBe(id);
    expect(await walletUserId('0x' + 'AB'.repeat(20))).toBe(id);
    expect(await walletUserId('0x' + 'cd'.repeat(20))).not.toBe(id);
  });
});

describe('the project, as Supabase hands it to a function', () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];

  test('the secret key comes from SUPABASE_SECRET_KEYS, else the legacy service-role key', () => {
    expect(projectSecretKey(env({ SUPABASE_SECRET_KEYS: '{"default":"sb_secret_a"}' }))).toBe(
      'sb_secret_a',
    );
    expect(projectSecretKey(env({ SUPABASE_SECRET_KEYS: '{"ci":"sb_secret_b"}' }))).toBe(
      'sb_secret_b',
    );
    expect(projectSecretKey(env({ SUPABASE_SERVICE_ROLE_KEY: 'eyJlegacy' }))).toBe('eyJlegacy');
    expect(projectSecretKey(env({}))).toBeNull();
    expect(() => projectSecretKey(env({ SUPABASE_SECRET_KEYS: 'sb_secret_a' }))).toThrow(
      /not JSON/,
    );
    expect(() => projectSecretKey(env({ SUPABASE_SECRET_KEYS: '{}' }))).toThrow(/holds no key/);
  });

  test('a secret key goes in apikey only; a legacy key, a JWT, also as the bearer', () => {
    expect(serviceHeaders('sb_secret_a')).toEqual({ apikey: 'sb_secret_a' });
    expect(serviceHeaders('eyJlegacy')).toEqual({
      apikey: 'eyJlegacy',
      Authorization: 'Bearer eyJlegacy',
    });
  });

  test('SITE_URL lists origins, and a bad one is named', () => {
    expect(siteOrigins('https://taleweaver.example/play, http://localhost:8080')).toEqual([
      'https://taleweaver.example',
      'http://localhost:8080',
    ]);
    expect(() => siteOrigins('taleweaver.example')).toThrow(/'taleweaver.example' is not one/);
  });
});
