import { Wallet, getAddress } from 'ethers';
import fc from 'fast-check';
import { SiweMessage } from 'siwe';
import { SIGN_IN_STATEMENT, buildSignInMessage } from '../../../src/features/wallet/siweMessage';

const fieldsFor = (address: string, nonce = 'a1b2c3d4e5f6a7b8', issuedAt = new Date()) => ({
  domain: 'localhost:8080',
  address,
  uri: 'http://localhost:8080',
  chainId: 1,
  nonce,
  issuedAt,
  expirationTime: new Date(issuedAt.getTime() + 10 * 60 * 1000),
  statement: SIGN_IN_STATEMENT,
});

test('the message the browser builds is one siwe parses and verifies, as the server does', async () => {
  const wallet = Wallet.createRandom();
  const text = buildSignInMessage(fieldsFor(wallet.address));
  const parsed = new SiweMessage(text);
  expect(parsed).toEqual(
    expect.objectContaining({
      domain: 'localhost:8080',
      address: wallet.address,
      uri: 'http://localhost:8080',
      chainId: 1,
      nonce: 'a1b2c3d4e5f6a7b8',
      statement: SIGN_IN_STATEMENT,
    }),
  );
  const verified = await parsed.verify({ signature: await wallet.signMessage(text) });
  expect(verified.success).toBe(true);
  expect(parsed.prepareMessage()).toBe(text);
});

test('any address, nonce, chain and time give a message siwe accepts unchanged', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 20, maxLength: 20 }),
      fc.stringMatching(/^[a-zA-Z0-9]{8,32}$/),
      fc.integer({ min: 1, max: 2 ** 31 }),
      fc.date({ min: new Date('2020-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
      (bytes, nonce, chainId, issuedAt) => {
        const checksummed = getAddress(`0x${Buffer.from(bytes).toString('hex')}`);
        const text = buildSignInMessage({ ...fieldsFor(checksummed, nonce, issuedAt), chainId });
        expect(new SiweMessage(text).prepareMessage()).toBe(text);
      },
    ),
    { numRuns: 50 },
  );
});

test('a statement outside printable ASCII is refused before it makes an invalid message', () => {
  const wallet = Wallet.createRandom();
  expect(() =>
    buildSignInMessage({ ...fieldsFor(wallet.address), statement: '테일위버에 로그인' }),
  ).toThrow('A sign-in statement must be printable ASCII');
});
