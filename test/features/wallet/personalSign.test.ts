import fc from 'fast-check';
import { Signature, Wallet, getAddress, hexlify, toUtf8Bytes, verifyMessage } from 'ethers';
import {
  accountAddress,
  messageSigner,
  personalSignPayload,
} from '../../../src/features/wallet/personalSign';

/** A few fixed keys: making a key is the slow part, and any key does. */
const WALLETS = [1, 2, 3].map((n) => new Wallet(`0x${n.toString(16).padStart(64, '0')}`));

const throws = (f: () => unknown) => {
  try {
    f();
    return false;
  } catch {
    return true;
  }
};

describe('personalSign gives what ethers gives', () => {
  it('for the payload personal_sign is handed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (message) => {
        expect(personalSignPayload(message)).toBe(hexlify(toUtf8Bytes(message)));
      }),
    );
  });

  it('for an account, checksummed, and for what it refuses', () => {
    const hexAddress = fc
      .uint8Array({ minLength: 20, maxLength: 20 })
      .map((bytes) => Buffer.from(bytes).toString('hex'));
    fc.assert(
      fc.property(
        hexAddress,
        fc.constantFrom('lower', 'upper', 'checksum', 'noPrefix', 'mixed'),
        (hex, form) => {
          const checksum = getAddress(`0x${hex}`);
          const account = {
            lower: `0x${hex}`,
            upper: `0x${hex.toUpperCase()}`,
            checksum,
            noPrefix: hex,
            // A checksummed address with one letter's case flipped: a bad checksum.
            mixed: checksum.replace(/[a-fA-F]/, (c) =>
              c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase(),
            ),
          }[form];
          if (throws(() => getAddress(account))) {
            expect(() => accountAddress(account)).toThrow();
          } else {
            expect(accountAddress(account)).toBe(getAddress(account));
          }
        },
      ),
    );
    for (const bad of ['', '0x', '0x1234', `0x${'g'.repeat(40)}`, `0x${'a'.repeat(41)}`]) {
      expect(() => accountAddress(bad)).toThrow();
    }
  });

  it('for the signer of a message, in every form of its signature', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme' }),
        fc.constantFrom(...WALLETS),
        async (message, wallet) => {
          const signature = await wallet.signMessage(message);
          const sig = Signature.from(signature);
          const forms = [
            signature,
            sig.compactSerialized,
            // v as 0/1 rather than 27/28.
            `${signature.slice(0, -2)}${(sig.v - 27).toString(16).padStart(2, '0')}`,
          ];
          for (const form of forms) {
            expect(messageSigner(message, form)).toBe(verifyMessage(message, form));
            expect(messageSigner(message, form)).toBe(wallet.address);
          }
          // Another message: another (wrong) signer, as ethers recovers it.
          expect(messageSigner(`${message}!`, signature)).toBe(
            verifyMessage(`${message}!`, signature),
          );
        },
      ),
      { numRuns: 30 },
    );
  });

  it('and throws on a signature ethers refuses', async () => {
    const signature = await WALLETS[0]!.signMessage('Sign in');
    const bad = [
      '0x',
      signature.slice(0, -4),
      `${signature.slice(0, -2)}05`,
      // s with its top bit set (non-canonical).
      `${signature.slice(0, 66)}f${signature.slice(67)}`,
      // r of zero.
      `0x${'0'.repeat(64)}${signature.slice(66)}`,
    ];
    for (const form of bad) {
      expect(() => verifyMessage('Sign in', form)).toThrow();
      expect(() => messageSigner('Sign in', form)).toThrow();
    }
  });
});
