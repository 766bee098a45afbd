/**
 * How a sign-in fails, and how the player is told (SPEC.md section 8, Wallet): the refusals a
 * sign-in can meet, and the sign-in flow's failure mapper under the failure policy
 * (src/shared/failurePolicy.ts). Kept apart from the sign-in itself, which is downloaded when
 * the player first presses Connect Wallet: a failure to download it is told too.
 */
import { select } from 'typed-redux-saga';
import { unexpected } from '../../shared/failurePolicy';
import { walletErrorCode } from './eip1193';
import { fromContext } from './sagaContext';
import { clearAuthState } from './session';
import { signInFailed, type WalletErrorCode, type WalletState } from './walletSlice';

/** The signature recovers to another key, and the account has no contract to vouch for it. */
export class SignatureMismatchError extends Error {
  constructor(expected: string) {
    super(`The signature was not made by ${expected}, which has no contract to vouch for it`);
    this.name = 'SignatureMismatchError';
  }
}

/**
 * The backend's sign-in limit (nonce requests and logins per address per minute) is spent: the
 * player is asked to wait rather than to sign a message the server would refuse.
 */
export class SignInRateLimitedError extends Error {
  constructor() {
    super('Too many sign-in requests from this address; the backend answered 429');
    this.name = 'SignInRateLimitedError';
  }
}

export class LoginRefusedError extends Error {
  constructor(readonly reason: string) {
    super(`The server refused the sign-in: ${reason}`);
    this.name = 'LoginRefusedError';
  }
}

/** The server found that the signature is not the account's (a key's, or its contract's). */
export class SignatureRejectedError extends Error {
  constructor() {
    super('The server found the signature was not made by this account');
    this.name = 'SignatureRejectedError';
  }
}

/**
 * A smart account's signature the server could not judge: it has no endpoint for the chain
 * (`unchecked`), or the chain did not answer (`unavailable`, and the nonce is still good).
 */
export class SmartAccountChainError extends Error {
  constructor(
    readonly kind: 'unchecked' | 'unavailable',
    readonly chainId: number,
  ) {
    super(`The server could not check a smart account's signature on chain ${chainId}: ${kind}`);
    this.name = 'SmartAccountChainError';
  }
}

/** What the player is told about a failed sign-in, with the chain a smart account's names. */
function failureOf(error: unknown): [WalletErrorCode, number | null] {
  if (error instanceof SignatureMismatchError || error instanceof SignatureRejectedError) {
    return ['verificationFailed', null];
  }
  if (error instanceof SignInRateLimitedError) return ['rateLimited', null];
  if (error instanceof SmartAccountChainError) {
    return [
      error.kind === 'unchecked' ? 'smartAccountUnchecked' : 'chainUnavailable',
      error.chainId,
    ];
  }
  return [walletErrorCode(error), null];
}

/**
 * The sign-in's failure mapper: the account being signed (the store's, while signing) loses
 * its proof here (SPEC.md section 4: a failed signing clears the auth state), and the player is
 * told why. A refusal nothing names (the server's, an unreadable token) is logged as well.
 */
export function* signInFailedWith(error: unknown) {
  const env = yield* fromContext('walletEnvironment');
  const wallet: WalletState = yield* select((state: { wallet: WalletState }) => state.wallet);
  if (wallet.status === 'signing' && wallet.address) {
    try {
      clearAuthState(env.storage, wallet.address);
    } catch {
      // A storage that refuses (site data blocked) keeps no proof to clear: still, tell why.
    }
  }
  const [code, chainId] = failureOf(error);
  const told = signInFailed(code, chainId);
  return code === 'authFailed' ? unexpected(told) : told;
}
