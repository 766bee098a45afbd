/**
 * The characters a web font file maps to glyphs (its `cmap` table, formats 4 and 12), read from
 * the WOFF2 or WOFF file a browser downloads: what a face can draw, not what its CSS claims.
 * WOFF2 (W3C WOFF2, section 5): one Brotli stream holds every table in directory order; `cmap` is
 * never transformed. WOFF 1: each table zlib-compressed on its own.
 */
import zlib from 'node:zlib';

/** WOFF2's known table tags, by their index in a table directory entry's flags. */
const KNOWN_TAGS = [
  'cmap',
  'head',
  'hhea',
  'hmtx',
  'maxp',
  'name',
  'OS/2',
  'post',
  'cvt ',
  'fpgm',
  'glyf',
  'loca',
];

function readBase128(bytes: Buffer, at: { offset: number }): number {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    const byte = bytes[at.offset++]!;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return value;
  }
  throw new Error('UIntBase128 longer than 5 bytes');
}

function woff2Cmap(file: Buffer): Buffer {
  const numTables = file.readUInt16BE(12);
  const compressedLength = file.readUInt32BE(20);
  const at = { offset: 48 };
  let cmap: { start: number; length: number } | null = null;
  let position = 0;
  for (let i = 0; i < numTables; i++) {
    const flags = file[at.offset++]!;
    const tagIndex = flags & 0x3f;
    let tag = KNOWN_TAGS[tagIndex] ?? `#${tagIndex}`;
    if (tagIndex === 63) {
      tag = file.toString('latin1', at.offset, at.offset + 4);
      at.offset += 4;
    }
    const version = flags >> 6;
    const origLength = readBase128(file, at);
    // glyf and loca are transformed unless version 3; every other table only when not 0.
    const transformed = tag === 'glyf' || tag === 'loca' ? version !== 3 : version !== 0;
    const length = transformed ? readBase128(file, at) : origLength;
    if (tag === 'cmap') cmap = { start: position, length };
    position += length;
  }
  if (!cmap) throw new Error('No cmap table');
  if (file.toString('latin1', 4, 8) === 'ttcf') throw new Error('Font collections are not read');
  const tables = zlib.brotliDecompressSync(file.subarray(at.offset, at.offset + compressedLength));
  return tables.subarray(cmap.start, cmap.start + cmap.length);
}

function woffCmap(file: Buffer): Buffer {
  const numTables = file.readUInt16BE(12);
  for (let i = 0; i < numTables; i++) {
    const entry = 44 + i * 20;
    if (file.toString('latin1', entry, entry + 4) !== 'cmap') continue;
    const offset = file.readUInt32BE(entry + 4);
    const compLength = file.readUInt32BE(entry + 8);
    const origLength = file.readUInt32BE(entry + 12);
    const table = file.subarray(offset, offset + compLength);
    return compLength < origLength ? zlib.inflateSync(table) : table;
  }
  throw new Error('No cmap table');
}

/** The code points of a cmap subtable of format 4 (BMP segments) or 12 (groups). */
function subtableCodePoints(cmap: Buffer, offset: number, into: Set<number>): void {
  const format = cmap.readUInt16BE(offset);
  if (format === 4) {
    const segments = cmap.readUInt16BE(offset + 6) / 2;
    const ends = offset + 14;
    const starts = ends + segments * 2 + 2;
    const deltas = starts + segments * 2;
    const rangeOffsets = deltas + segments * 2;
    for (let s = 0; s < segments; s++) {
      const start = cmap.readUInt16BE(starts + s * 2);
      const end = cmap.readUInt16BE(ends + s * 2);
      const delta = cmap.readInt16BE(deltas + s * 2);
      const rangeOffset = cmap.readUInt16BE(rangeOffsets + s * 2);
      for (let code = start; code <= end && code !== 0xffff; code++) {
        let glyph: number;
        if (rangeOffset === 0) glyph = (code + delta) & 0xffff;
        else {
          const at = rangeOffsets + s * 2 + rangeOffset + (code - start) * 2;
          glyph = cmap.readUInt16BE(at);
          if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
        }
        if (glyph !== 0) into.add(code);
      }
    }
  } else if (format === 12) {
    const groups = cmap.readUInt32BE(offset + 12);
    for (let g = 0; g < groups; g++) {
      const group = offset + 16 + g * 12;
      const start = cmap.readUInt32BE(group);
      const end = cmap.readUInt32BE(group + 4);
      for (let code = start; code <= end; code++) into.add(code);
    }
  }
}

/** Every code point the font file (WOFF2 or WOFF) has a glyph for. */
export function fontCodePoints(file: Buffer): Set<number> {
  const signature = file.toString('latin1', 0, 4);
  const cmap =
    signature === 'wOF2' ? woff2Cmap(file) : signature === 'wOFF' ? woffCmap(file) : null;
  if (!cmap) throw new Error(`Not a WOFF or WOFF2 file (${JSON.stringify(signature)})`);
  const codePoints = new Set<number>();
  const subtables = cmap.readUInt16BE(2);
  for (let i = 0; i < subtables; i++) {
    subtableCodePoints(cmap, cmap.readUInt32BE(4 + i * 8 + 4), codePoints);
  }
  return codePoints;
}
