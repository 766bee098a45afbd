import { TextDecoder, TextEncoder } from 'node:util';

// jsdom lacks the encoders that react-router (and later supabase-js, ethers) expect.
if (typeof globalThis.TextEncoder === 'undefined') {
  Object.assign(globalThis, { TextEncoder, TextDecoder });
}
