/**
 * Local Network Access's address spaces (src/features/llm/addressSpace.ts), by the ranges of
 * Chrome's guide: loopback (127.0.0.0/8, ::1, localhost), local (RFC 1918, link-local, unique
 * local IPv6, `.local`), public for the rest; and which space a page needs permission for.
 */
import fc from 'fast-check';
import {
  addressSpaceOfHost,
  addressSpaceOfUrl,
  permissionSpaceFor,
  type AddressSpace,
} from '../../../src/features/llm';

/** Each URL as a player might type it, with the space its host is in. */
const URLS: ReadonlyArray<[string, AddressSpace]> = [
  ['http://localhost:11434/v1', 'loopback'],
  ['http://LOCALHOST:1234/v1', 'loopback'],
  ['http://ollama.localhost:11434/v1', 'loopback'],
  ['http://127.0.0.1:11434/v1', 'loopback'],
  ['http://127.8.9.10/v1', 'loopback'],
  ['http://0.0.0.0:11434/v1', 'loopback'],
  ['http://[::1]:8080/v1', 'loopback'],
  ['http://[::ffff:127.0.0.1]:8080/v1', 'loopback'],
  ['http://10.0.0.2:8000/v1', 'local'],
  ['http://172.16.0.1/v1', 'local'],
  ['http://172.31.255.255/v1', 'local'],
  ['http://192.168.1.20:11434/v1', 'local'],
  ['http://169.254.10.1/v1', 'local'],
  ['http://gpu-box.local:1234/v1', 'local'],
  ['http://[fe80::1]:8080/v1', 'local'],
  ['http://[fd12:3456:789a::1]/v1', 'local'],
  ['http://[::ffff:192.168.0.5]/v1', 'local'],
  ['https://api.groq.com/openai/v1', 'public'],
  ['https://taleweaver.example', 'public'],
  ['http://172.15.0.1/v1', 'public'],
  ['http://172.32.0.1/v1', 'public'],
  ['http://192.169.0.1/v1', 'public'],
  ['http://8.8.8.8/v1', 'public'],
  ['http://[2001:db8::1]/v1', 'public'],
  ['http://[::ffff:8.8.8.8]/v1', 'public'],
  // A name the page cannot resolve: the browser may find it local, the page cannot tell.
  ['http://ollama.lan:11434/v1', 'public'],
  ['http://localhost.example.com/v1', 'public'],
];

test.each(URLS)('%s is %s', (url, space) => {
  expect(addressSpaceOfUrl(url)).toBe(space);
});

test('the page’s own host name, as location.hostname has it', () => {
  expect(addressSpaceOfHost('localhost')).toBe('loopback');
  expect(addressSpaceOfHost('[::1]')).toBe('loopback');
  expect(addressSpaceOfHost('192.168.0.10')).toBe('local');
  expect(addressSpaceOfHost('printer.local.')).toBe('local');
  expect(addressSpaceOfHost('taleweaver.example')).toBe('public');
});

test('what is not an http(s) URL has no address space', () => {
  for (const url of ['', 'localhost:11434', 'ftp://127.0.0.1/', 'not a url']) {
    expect(addressSpaceOfUrl(url)).toBeNull();
  }
});

test('every IPv4 address is sorted by its first two numbers, however URL writes it', () => {
  const byte = fc.integer({ min: 0, max: 255 });
  fc.assert(
    fc.property(byte, byte, byte, byte, (a, b, c, d) => {
      const expected: AddressSpace =
        a === 127 || a === 0
          ? 'loopback'
          : a === 10 ||
              (a === 172 && b >= 16 && b <= 31) ||
              (a === 192 && b === 168) ||
              (a === 169 && b === 254)
            ? 'local'
            : 'public';
      expect(addressSpaceOfUrl(`http://${a}.${b}.${c}.${d}:8080/v1`)).toBe(expected);
      // The same address as an IPv4-mapped IPv6 one is in the same space.
      expect(addressSpaceOfUrl(`http://[::ffff:${a}.${b}.${c}.${d}]/v1`)).toBe(expected);
    }),
  );
});

describe('the permission a page needs (a request into a more private space)', () => {
  test.each<[AddressSpace, AddressSpace | null, AddressSpace | null]>([
    ['public', 'loopback', 'loopback'],
    ['public', 'local', 'local'],
    ['local', 'loopback', 'loopback'],
    ['public', 'public', null],
    ['local', 'local', null],
    ['local', 'public', null],
    ['loopback', 'loopback', null],
    ['loopback', 'local', null],
    ['public', null, null],
  ])('from a %s page to a %s server: %s', (page, target, needed) => {
    expect(permissionSpaceFor(page, target)).toBe(needed);
  });
});
