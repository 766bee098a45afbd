import { tokenExpiry } from '../../../src/features/wallet/tokenClaims';
import { tokenExpiringAt } from '../../fixtures/walletSessions';

// Expiries, whatever the clock: tokenExpiry reads them, it does not judge them.
const EARLIER = Date.UTC(2026, 10, 29, 19, 0, 0);
const LATER = Date.UTC(2026, 10, 30, 18, 0, 0);

describe("a token's expiry (tokenExpiry)", () => {
  test('is the exp claim, in seconds, read again the same for the same token', () => {
    const token = tokenExpiringAt(EARLIER);
    expect(tokenExpiry(token)).toBe(EARLIER / 1000);
    expect(tokenExpiry(token)).toBe(EARLIER / 1000);
  });

  test('is decoded once for a token read again, as the session check reads it every second', () => {
    const token = tokenExpiringAt(Date.UTC(2027, 0, 1));
    const decoded = jest.spyOn(globalThis, 'atob');
    try {
      expect(tokenExpiry(token)).toBe(Date.UTC(2027, 0, 1) / 1000);
      expect(tokenExpiry(token)).toBe(Date.UTC(2027, 0, 1) / 1000);
      expect(decoded).toHaveBeenCalledTimes(1);
    } finally {
      decoded.mockRestore();
    }
  });

  test("is each token's own when the token changes (another tab's sign-in), and back", () => {
    const first = tokenExpiringAt(EARLIER);
    const fresh = tokenExpiringAt(LATER);
    expect(tokenExpiry(first)).toBe(EARLIER / 1000);
    expect(tokenExpiry(fresh)).toBe(LATER / 1000);
    expect(tokenExpiry(first)).toBe(EARLIER / 1000);
  });

  test('is null for what is not a JWT with an exp, also right after a good one', () => {
    const good = tokenExpiringAt(EARLIER);
    const noExp = `eyJhbGciOiJFUzI1NiJ9.${Buffer.from('{"sub":"x"}').toString('base64url')}.s`;
    expect(tokenExpiry(good)).toBe(EARLIER / 1000);
    expect(tokenExpiry('not-a-token')).toBeNull();
    expect(tokenExpiry('a.b!.c')).toBeNull();
    expect(tokenExpiry(noExp)).toBeNull();
    expect(tokenExpiry(good)).toBe(EARLIER / 1000);
  });
});
