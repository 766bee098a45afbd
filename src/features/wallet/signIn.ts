/**
 * Signing in with a wallet (DESIGN.md, Sign-in), loaded when the player first presses Connect
 * Wallet: it brings the signature recovery (personalSign.ts), which the home screen does not need.
 */
import { call, put, race, take } from 'typed-redux-saga';
import { fromContext } from './sagaContext';
import { walletErrorCode, type Eip1193Provider } from './eip1193';
import type { WalletEnvironment } from './environment';
import { accountAddress, messageSigner, personalSignPayload } from './personalSign';
import { clearAuthState, storeSignIn } from './session';
import { tokenExpiry } from './tokenClaims';
import { SIGN_IN_MESSAGE_LIFETIME_MS, SIGN_IN_STATEMENT, buildSignInMessage } from './siweMessage';
import {
  LoginRefusedError,
  SignInRateLimitedError,
  ensureUser,
  exchangeSignature,
  requestNonce,
} from './walletBackend';
import {
  connectCancelled,
  signInFailed,
  signatureRequested,
  signedIn,
  walletChoiceOffered,
  walletChosen,
} from './walletSlice';

class SignatureMismatchError extends Error {
  constructor(expected: string, recovered: string) {
    super(`The signature was made by ${recovered}, not by ${expected}`);
    this.name = 'SignatureMismatchError';
  }
}

/** The wallet to use: the only one found, or the one the player picks; null when none. */
function* chooseWallet(env: WalletEnvironment) {
  const wallets = yield* call(env.discoverWallets);
  if (wallets.length === 0) {
    yield* put(signInFailed('noWallet'));
    return null;
  }
  if (wallets.length === 1) return wallets[0]!.provider;
  yield* put(walletChoiceOffered(wallets.map((wallet) => wallet.info)));
  const { chosen } = yield* race({ chosen: take(walletChosen), cancelled: take(connectCancelled) });
  return wallets.find((wallet) => wallet.info.id === chosen?.payload)?.provider ?? null;
}

const request = (provider: Eip1193Provider, method: string, params?: unknown[]) =>
  provider.request(params ? { method, params } : { method });

/**
 * Connect → sign → verified (SPEC.md section 4, Wallet session). Asks the wallet for its
 * account, gets a nonce, has the wallet sign the EIP-4361 message, checks the signer here, and
 * trades the signature for the server's token. Returns the wallet used, or null on failure
 * (the auth state is then cleared and the player told why).
 */
export function* signIn(preferred: Eip1193Provider | null) {
  const env = yield* fromContext('walletEnvironment');
  const backendProvider = yield* fromContext('backend');
  let address: string | null = null;
  try {
    const provider = preferred ?? (yield* chooseWallet(env));
    if (!provider) return null;
    const accounts = (yield* call(request, provider, 'eth_requestAccounts')) as string[];
    if (!accounts[0]) throw Object.assign(new Error('The wallet gave no account'), { code: 4001 });
    address = accountAddress(accounts[0]);
    yield* put(signatureRequested(address));

    const backend = yield* call(backendProvider);
    const nonce = yield* call(requestNonce, backend, address);
    const chainId = Number(yield* call(request, provider, 'eth_chainId')) || 1;
    const issuedAt = new Date(env.now());
    const message = buildSignInMessage({
      domain: env.site.host,
      address,
      uri: env.site.origin,
      chainId,
      nonce,
      issuedAt,
      expirationTime: new Date(issuedAt.getTime() + SIGN_IN_MESSAGE_LIFETIME_MS),
      statement: SIGN_IN_STATEMENT,
    });
    const signature = String(
      yield* call(request, provider, 'personal_sign', [personalSignPayload(message), address]),
    );
    const signer = messageSigner(message, signature);
    if (signer.toLowerCase() !== address.toLowerCase()) {
      throw new SignatureMismatchError(address, signer);
    }

    const token = yield* call(exchangeSignature, backend, message, signature);
    const expiry = tokenExpiry(token);
    // A token the game cannot read the expiry of would end the session at the next check.
    if (expiry === null) throw new LoginRefusedError('the token states no expiry');
    storeSignIn(env.storage, { address, signature, token });
    const session = { address: address.toLowerCase(), token, expiresAt: expiry * 1000 };
    yield* call(ensureUser, backend, session);
    yield* put(signedIn(session));
    return provider;
  } catch (error) {
    if (address) clearAuthState(env.storage, address);
    const code =
      error instanceof SignatureMismatchError
        ? 'verificationFailed'
        : error instanceof SignInRateLimitedError
          ? 'rateLimited'
          : walletErrorCode(error);
    if (code === 'authFailed') console.error('Wallet sign-in failed', error);
    yield* put(signInFailed(code));
    return null;
  }
}
