import { tokenExpiry } from '../../../src/features/wallet/tokenClaims';
import { tokenExpiringAt } from '../../fixtures/walletSessions';

const IN_AN_HOUR = Date.UTC(2026, 10, 29, 19, 0, 0);
const TOMORROW = Date.UTC(2026, 10, 30, 18, 0, 0);

describe("a token's expiry (tokenExpiry)", () => {
  test('is the exp claim, in seconds, read again the same for the same token', () => {
    const token = tokenExpiringAt(IN_AN_HOUR);
    expect(tokenExpiry(token)).toBe(IN_AN_HOUR / 1000);
    expect(tokenExpiry(token)).toBe(IN_AN_HOUR / 1000);
  });

  test("is each token's own when the token changes (another tab's sign-in), and back", () => {
    const first = tokenExpiringAt(IN_AN_HOUR);
    const fresh = tokenExpiringAt(TOMORROW);
    expect(tokenExpiry(first)).toBe(IN_AN_HOUR / 1000);
    expect(tokenExpiry(fresh)).toBe(TOMORROW / 1000);
    expect(tokenExpiry(first)).toBe(IN_AN_HOUR / 1000);
  });

  test('is null for what is not a JWT with an exp, also right after a good one', () => {
    const good = tokenExpiringAt(IN_AN_HOUR);
    const noExp = `eyJhbGciOiJFUzI1NiJ9.${Buffer.from('{"sub":"x"}').toString('base64url')}.s`;
    expect(tokenExpiry(good)).toBe(IN_AN_HOUR / 1000);
    expect(tokenExpiry('not-a-token')).toBeNull();
    expect(tokenExpiry('a.b!.c')).toBeNull();
    expect(tokenExpiry(noExp)).toBeNull();
    expect(tokenExpiry(good)).toBe(IN_AN_HOUR / 1000);
  });
});
