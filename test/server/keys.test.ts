/**
 * The local server's keys (server/auth.ts): made once into the data folder and kept, or taken
 * from the environment as on Supabase; and the older projects' HS256 tokens, accepted only when
 * JWT_SECRET is set.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { TokenAuthority, loadServerKeys, newServerKeys, newSigningJwk } from '../../server/auth';

const PUBLISHABLE = 'sb_publishable_test';

describe('the keys in the data folder', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-keys-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test('are made on first start, readable by their owner only, and kept', () => {
    const first = loadServerKeys(dataDir, PUBLISHABLE, {});
    for (const file of ['signing-key.jwk', 'secret-key']) {
      expect(fs.statSync(path.join(dataDir, file)).mode & 0o777).toBe(0o600);
    }
    expect(first.secretKey).toMatch(/^sb_secret_[\w-]{32}$/);
    expect(first.legacyJwtSecret).toBeUndefined();
    expect(loadServerKeys(dataDir, PUBLISHABLE, {})).toEqual(first);
  });

  test('give way to the environment', () => {
    const signingJwk = newSigningJwk();
    const keys = loadServerKeys(dataDir, PUBLISHABLE, {
      WALLET_LOGIN_SIGNING_JWK: JSON.stringify(signingJwk),
      SUPABASE_SECRET_KEYS: '{"default":"sb_secret_from_env"}',
    });
    expect(keys.signingJwk).toEqual(signingJwk);
    expect(keys.secretKey).toBe('sb_secret_from_env');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  test('a damaged key file is named, not used', () => {
    fs.writeFileSync(path.join(dataDir, 'signing-key.jwk'), '{"kty":"EC"}');
    expect(() => loadServerKeys(dataDir, PUBLISHABLE, {})).toThrow(/signing-key\.jwk must be/);
  });
});

describe("an older project's HS256 tokens", () => {
  const legacySecret = 'legacy-secret-legacy-secret-legacy-0123';
  const hs256 = () =>
    new SignJWT({ role: 'authenticated', wallet_address: '0x' + 'ab'.repeat(20) })
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience('authenticated')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(legacySecret));

  test('are accepted when JWT_SECRET is set', async () => {
    const tokens = await TokenAuthority.create({
      ...newServerKeys(PUBLISHABLE),
      legacyJwtSecret: legacySecret,
    });
    const claims = await tokens.claimsFor(PUBLISHABLE, `Bearer ${await hs256()}`);
    expect(claims.role).toBe('authenticated');
  });

  test('are refused otherwise', async () => {
    const tokens = await TokenAuthority.create(newServerKeys(PUBLISHABLE));
    await expect(tokens.claimsFor(PUBLISHABLE, `Bearer ${await hs256()}`)).rejects.toMatchObject({
      status: 401,
    });
  });

  test('a short JWT_SECRET is refused at start', async () => {
    await expect(
      TokenAuthority.create({ ...newServerKeys(PUBLISHABLE), legacyJwtSecret: 'short' }),
    ).rejects.toThrow(/at least 32 characters/);
  });
});
