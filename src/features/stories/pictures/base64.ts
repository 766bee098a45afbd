// A picture's bytes as base64 text in a story export, and back. (Uint8Array's own toBase64 is
// not in every browser yet.)

/** Bytes passed to String.fromCharCode at once: far below any engine's argument limit. */
const CHUNK = 0x8000;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let from = 0; from < bytes.length; from += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(from, from + CHUNK));
  }
  return btoa(binary);
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes base64 text stands for, or null when it is not base64 (padded, no spaces). */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64.test(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** How many bytes base64 text of this length stands for at most: checked before decoding it. */
export const base64Bytes = (length: number) => Math.floor(length / 4) * 3;
