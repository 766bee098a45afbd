/**
 * The Ethereum pieces of signing in (DESIGN.md, Sign-in): an account's EIP-55 address, the
 * personal_sign payload of a message, and the address that signed it (EIP-191). The hashes are
 * @noble/hashes, which ethers itself runs on; the curve is @noble/secp256k1, the same author's
 * single-curve library (recovery alone needs no more: @noble/curves' general curve code cost
 * about 6 KB more over the wire). A test checks each against ethers, which the tests and the
 * server's tools still use.
 */
import { Signature } from '@noble/secp256k1';
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from '@noble/hashes/utils';

/** The EIP-55 checksummed form of a 20-byte address, as ethers' getAddress gives it. */
function checksummed(lowerHex: string): string {
  const hash = keccak_256(utf8ToBytes(lowerHex));
  let address = '0x';
  for (let i = 0; i < 40; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 0x0f;
    address += nibble >= 8 ? lowerHex[i]!.toUpperCase() : lowerHex[i];
  }
  return address;
}

/**
 * An account as the wallet gave it, checksummed (EIP-55). Throws on anything that is not a
 * 20-byte hex address, and on a mixed-case one whose checksum is wrong (a mistyped address).
 */
export function accountAddress(account: string): string {
  if (!/^(0x)?[0-9a-fA-F]{40}$/.test(account)) {
    throw new Error(`Not an Ethereum address: '${account}'`);
  }
  const hex = account.replace(/^0x/, '');
  const address = checksummed(hex.toLowerCase());
  const mixedCase = /[A-F]/.test(hex) && /[a-f]/.test(hex);
  if (mixedCase && address !== `0x${hex}`) {
    throw new Error(`The address '${account}' has a wrong checksum (expected ${address})`);
  }
  return address;
}

/** What personal_sign is handed for a text message: its UTF-8 bytes in hex. */
export const personalSignPayload = (message: string): string =>
  `0x${bytesToHex(utf8ToBytes(message))}`;

/** The recovery bit of a signature's v: 0/27 and 1/28, or an EIP-155 v (35 and up). */
function recoveryBit(v: number): number {
  if (v === 0 || v === 27) return 0;
  if (v === 1 || v === 28) return 1;
  if (v >= 35) return v % 2 === 1 ? 0 : 1;
  throw new Error(`A signature's v must be 0, 1, 27, 28 or 35 and up, not ${v}`);
}

/**
 * The checksummed address that signed `message` with personal_sign (EIP-191: the message
 * prefixed with "\x19Ethereum Signed Message:\n" and its length in bytes, hashed with
 * keccak-256). Takes a 65-byte signature (r, s, v) or a 64-byte compact one (EIP-2098); throws
 * on a malformed one.
 */
export function messageSigner(message: string, signature: string): string {
  const bytes = hexToBytes(signature.replace(/^0x/, ''));
  let compact: Uint8Array;
  let bit: number;
  if (bytes.length === 65) {
    compact = bytes.slice(0, 64);
    bit = recoveryBit(bytes[64]!);
  } else if (bytes.length === 64) {
    compact = bytes.slice();
    bit = compact[32]! & 0x80 ? 1 : 0;
    compact[32]! &= 0x7f;
  } else {
    throw new Error(`A signature is 64 or 65 bytes, not ${bytes.length}`);
  }
  // As ethers: an s with its top bit set is not a canonical signature.
  if (compact[32]! >= 0x80) throw new Error('A signature with a non-canonical s');
  const text = utf8ToBytes(message);
  const digest = keccak_256(
    concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${text.length}`), text),
  );
  const publicKey = Signature.fromCompact(compact)
    .addRecoveryBit(bit)
    .recoverPublicKey(digest)
    .toRawBytes(false);
  // The address is the last 20 bytes of the hash of the key's x and y (without the 0x04 tag).
  return checksummed(bytesToHex(keccak_256(publicKey.subarray(1)).subarray(12)));
}
