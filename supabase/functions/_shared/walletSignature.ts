/**
 * Whose signature a sign-in message carries (DESIGN.md, Sign-in; EIP-4361's verification, which
 * names ERC-1271 for contract accounts). In this order:
 *   1. a plain signature that recovers to the message's address: an externally owned account, or
 *      an EIP-7702 one signing with its key. No chain is asked, so such a wallet never waits on
 *      one and signs in wherever the server runs;
 *   2. anything else is the account's own word, asked of the chain the message names (its
 *      `Chain ID`) through CHAIN_RPC_URLS: ERC-1271 from a deployed account, ERC-6492 from one
 *      not deployed yet (its deployment simulated in an eth_call, never sent), ERC-8010.
 *
 * viem's verifyHash does step 2 (1271, 6492 through its deployless validator, 8010) in one
 * eth_call; it is the library the wallets themselves test against. It reads an endpoint it could
 * not reach as a signature that does not verify (a `false`), and telling those apart is this
 * module's job: the player must not hear that a valid signature is wrong because a node was
 * down. Only the server imports this: the browser bundle carries no chain code.
 */
import {
  HttpRequestError,
  LimitExceededRpcError,
  TimeoutError,
  createPublicClient,
  hashMessage,
  http,
  isAddressEqual,
  recoverMessageAddress,
  type Hex,
  type Transport,
} from 'viem';
import { verifyHash } from 'viem/actions';

/** How long one call to a chain's endpoint may take before sign-in says the chain is down. */
export const CHAIN_CALL_TIMEOUT_MS = 5_000;

export type SignatureVerdict =
  | { kind: 'valid'; by: 'key' | 'contract' }
  | { kind: 'invalid' }
  /** A contract account's signature, on a chain this server has no endpoint for. */
  | { kind: 'chainNotConfigured'; chainId: number }
  /** The chain's endpoint did not answer (or refused to): nothing is known of the signature. */
  | { kind: 'chainUnavailable'; chainId: number; reason: string };

export interface SignedMessage {
  /** The account the message names. */
  address: string;
  /** The EIP-4361 text, as personal_sign signed it. */
  message: string;
  signature: string;
  /** The message's `Chain ID`. */
  chainId: number;
}

export type SignatureVerifier = (signed: SignedMessage) => Promise<SignatureVerdict>;

export interface SignatureVerifierOptions {
  /** The endpoints of CHAIN_RPC_URLS, by chain id. */
  endpoints: ReadonlyMap<number, string>;
  timeoutMs?: number;
}

export function signatureVerifier({
  endpoints,
  timeoutMs = CHAIN_CALL_TIMEOUT_MS,
}: SignatureVerifierOptions): SignatureVerifier {
  return async ({ address, message, signature, chainId }) => {
    if (await isSignedByKey(address, message, signature)) return { kind: 'valid', by: 'key' };
    const url = endpoints.get(chainId);
    if (url === undefined) return { kind: 'chainNotConfigured', chainId };

    const unreachable: unknown[] = [];
    const client = createPublicClient({
      transport: watched(http(url, { timeout: timeoutMs, retryCount: 0 }), unreachable),
    });
    let valid: boolean;
    try {
      valid = await verifyHash(client, {
        address: address as Hex,
        hash: hashMessage(message),
        signature: signature as Hex,
      });
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      return { kind: 'chainUnavailable', chainId, reason: describe(error) };
    }
    if (valid) return { kind: 'valid', by: 'contract' };
    // viem's false may mean "the node never answered": then nothing was judged.
    if (unreachable.length > 0) {
      return { kind: 'chainUnavailable', chainId, reason: describe(unreachable[0]) };
    }
    return { kind: 'invalid' };
  };
}

/** Step 1: a 64- or 65-byte signature that recovers to the account, with no chain asked. */
async function isSignedByKey(address: string, message: string, signature: string) {
  if (!/^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/.test(signature)) return false;
  try {
    const signer = await recoverMessageAddress({ message, signature: signature as Hex });
    return isAddressEqual(signer, address as Hex);
  } catch {
    // Not a signature the curve accepts (a contract account's own format, say).
    return false;
  }
}

/** The transport, noting every call that did not reach an answer. */
function watched(transport: Transport, unreachable: unknown[]): Transport {
  return (parameters) => {
    const inner = transport(parameters);
    return {
      ...inner,
      async request(args, options) {
        try {
          return await inner.request(args, options);
        } catch (error) {
          if (isUnreachable(error)) unreachable.push(error);
          throw error;
        }
      },
    } as ReturnType<Transport>;
  };
}

/**
 * No answer about the signature: the endpoint could not be reached, timed out, answered with an
 * HTTP error (429 and 5xx included), or said it is over its own limits. A revert is an answer.
 */
function isUnreachable(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (
      cause instanceof HttpRequestError ||
      cause instanceof TimeoutError ||
      cause instanceof LimitExceededRpcError
    ) {
      return true;
    }
  }
  return false;
}

/** What went wrong with the endpoint, without its URL (a provider's URL often holds its key). */
function describe(error: unknown): string {
  if (error instanceof TimeoutError) return 'timed out';
  if (error instanceof HttpRequestError) {
    return error.status ? `answered HTTP ${error.status}` : 'could not be reached';
  }
  if (error instanceof LimitExceededRpcError) return 'is over its request limit';
  return error instanceof Error && error.cause ? describe(error.cause) : 'did not answer';
}

/**
 * CHAIN_RPC_URLS: comma-separated `<chainId>=<url>` pairs, e.g.
 * `8453=https://base-mainnet.example/KEY,1=https://eth-mainnet.example/KEY`. Empty or unset: no
 * chain, and only keys' signatures sign in. A wrong entry stops the server (or the function) with
 * the entry's position and chain, never its URL, which often holds a key.
 */
export function parseChainRpcUrls(value: string | undefined): Map<number, string> {
  const endpoints = new Map<number, string>();
  const entries = (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  entries.forEach((entry, index) => {
    const where = `CHAIN_RPC_URLS entry ${index + 1}`;
    const equals = entry.indexOf('=');
    const id = entry.slice(0, Math.max(equals, 0)).trim();
    const url = entry.slice(equals + 1).trim();
    if (equals < 0 || !/^[1-9]\d{0,14}$/.test(id)) {
      throw new Error(
        `${where} must be <chainId>=<url> with a decimal chain id, like 8453=https://…`,
      );
    }
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`${where} (chain ${id}) has no valid URL after '='`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
      throw new Error(`${where} (chain ${id}) must be an http or https URL`);
    }
    if (endpoints.has(Number(id))) throw new Error(`${where} names chain ${id} a second time`);
    endpoints.set(Number(id), url);
  });
  return endpoints;
}
