/**
 * The Sign-In with Ethereum (EIP-4361) message the wallet signs (DESIGN.md, Sign-in). Built by
 * hand because the siwe package costs about 190 KB in a browser bundle; a test parses and
 * verifies every message built here with siwe, as the server does.
 */
export interface SignInMessageFields {
  /** The page's host (with port), e.g. 'localhost:8080'. */
  domain: string;
  /** EIP-55 checksummed address. */
  address: string;
  /** The page's origin. */
  uri: string;
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date;
  /**
   * EIP-4361 allows only printable ASCII here, so the statement is English whatever the
   * interface language (a Korean statement would make the message invalid).
   */
  statement: string;
}

/** DESIGN.md: the message expires 10 minutes after it is issued. */
export const SIGN_IN_MESSAGE_LIFETIME_MS = 10 * 60 * 1000;
export const SIGN_IN_STATEMENT = 'Sign in to Taleweaver to prove that you own this wallet.';

export function buildSignInMessage(fields: SignInMessageFields): string {
  if (!/^[\x20-\x7e]*$/.test(fields.statement)) {
    throw new Error(`A sign-in statement must be printable ASCII, got '${fields.statement}'`);
  }
  return [
    `${fields.domain} wants you to sign in with your Ethereum account:`,
    fields.address,
    '',
    fields.statement,
    '',
    `URI: ${fields.uri}`,
    'Version: 1',
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt.toISOString()}`,
    `Expiration Time: ${fields.expirationTime.toISOString()}`,
  ].join('\n');
}
