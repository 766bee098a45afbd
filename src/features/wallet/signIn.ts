/**
 * Signing in with a wallet (DESIGN.md, Sign-in), loaded when the player first presses Connect
 * Wallet: it brings the signature recovery (personalSign.ts), which the home screen does not need.
 */
import { call, put, race, take } from 'typed-redux-saga';
import { fromContext } from './sagaContext';
import type { Eip1193Provider } from './eip1193';
import type { WalletEnvironment } from './environment';
import { accountAddress, messageSigner, personalSignPayload } from './personalSign';
import { storeSignIn } from './session';
import { tokenExpiry } from './tokenClaims';
import { SIGN_IN_MESSAGE_LIFETIME_MS, SIGN_IN_STATEMENT, buildSignInMessage } from './siweMessage';
import { LoginRefusedError, SignatureMismatchError } from './signInFailure';
import { ensureUser, exchangeSignature, requestNonce } from './walletBackend';
import {
  connectCancelled,
  signInFailed,
  signatureRequested,
  signedIn,
  walletChoiceOffered,
  walletChosen,
} from './walletSlice';

/** Does the signature recover to the account (a key's own, EIP-191)? False for any other kind. */
function isSignedByKey(message: string, signature: string, address: string): boolean {
  try {
    return messageSigner(message, signature).toLowerCase() === address.toLowerCase();
  } catch {
    // Not a 64- or 65-byte signature on the curve: a smart account's own format.
    return false;
  }
}

/** ERC-6492's suffix: the signature of an account not deployed yet, wrapped with its deployment. */
const ERC6492_SUFFIX = '6492'.repeat(16);

/**
 * May the account be a smart account, whose signature only its chain can judge? Yes when it has
 * code, when the signature is an ERC-6492 wrapper, or when the wallet will not say.
 */
function* mayBeSmartAccount(provider: Eip1193Provider, address: string, signature: string) {
  if (signature.toLowerCase().endsWith(ERC6492_SUFFIX)) return true;
  try {
    const code = yield* call(request, provider, 'eth_getCode', [address, 'latest']);
    return code !== '0x' && code !== '0x0';
  } catch {
    return true;
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
 * trades the signature for the server's token. Returns the wallet used, or null when there is
 * none to use. A refusal is thrown, for the Connect flow's failure policy to tell
 * (signInFailure.ts: the account's auth state is cleared and the player told why).
 */
export function* signIn(preferred: Eip1193Provider | null) {
  const env = yield* fromContext('walletEnvironment');
  const clock = yield* fromContext('clock');
  const backendProvider = yield* fromContext('backend');
  const provider = preferred ?? (yield* chooseWallet(env));
  if (!provider) return null;
  const accounts = (yield* call(request, provider, 'eth_requestAccounts')) as string[];
  if (!accounts[0]) throw Object.assign(new Error('The wallet gave no account'), { code: 4001 });
  const address = accountAddress(accounts[0]);
  yield* put(signatureRequested(address));

  const backend = yield* call(backendProvider);
  const nonce = yield* call(requestNonce, backend, address);
  const chainId = Number(yield* call(request, provider, 'eth_chainId')) || 1;
  const issuedAt = new Date(clock.now());
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
  // A key's signature is judged here (SPEC.md section 5); a smart account's (ERC-1271, or
  // ERC-6492 before its first transaction) goes to the server, which asks its chain.
  if (
    !isSignedByKey(message, signature, address) &&
    !(yield* mayBeSmartAccount(provider, address, signature))
  ) {
    throw new SignatureMismatchError(address);
  }

  const token = yield* call(exchangeSignature, backend, { message, signature, chainId });
  const expiry = tokenExpiry(token);
  // A token the game cannot read the expiry of would end the session at the next check.
  if (expiry === null) throw new LoginRefusedError('the token states no expiry');
  storeSignIn(env.storage, { address, signature, token });
  const session = { address: address.toLowerCase(), token, expiresAt: expiry * 1000 };
  yield* call(ensureUser, backend, session);
  yield* put(signedIn(session));
  return provider;
}
