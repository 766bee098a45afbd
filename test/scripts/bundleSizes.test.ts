import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  type BuildStats,
  gzipSize,
  javaScriptBytes,
  measureBuild,
  readBuildStats,
} from '../../scripts/bundleSizes';
import { STOP_TIMEOUT_MS } from '../support/timeouts';

/** A build as webpack.config.ts lays it out: files under assets/ and build-stats.json. */
function fakeBuild(files: Record<string, string>, stats: BuildStats): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-sizes-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
  fs.writeFileSync(path.join(dir, 'build-stats.json'), JSON.stringify(stats));
  return dir;
}

const text = (seed: string, lines: number) =>
  Array.from({ length: lines }, (_, i) => `function ${seed}${i}(){return ${i * 7919}}`).join('\n');

const FILES = {
  'assets/runtime.1.js': text('runtime', 20),
  'assets/main.2.js': text('main', 400),
  'assets/main.3.css': 'body{color:red}'.repeat(50),
  'assets/wallet.4.js': text('wallet', 30),
  'assets/532.5.js': text('shared', 120),
};

const STATS: BuildStats = {
  entrypoints: { main: ['assets/runtime.1.js', 'assets/main.3.css', 'assets/main.2.js'] },
  groups: {
    main: ['assets/runtime.1.js', 'assets/main.3.css', 'assets/main.2.js'],
    wallet: ['assets/532.5.js', 'assets/wallet.4.js'],
  },
  chunks: [
    { names: ['wallet'], initial: false, files: ['assets/wallet.4.js'] },
    { names: [], initial: false, files: ['assets/532.5.js', 'assets/532.5.js.LICENSE.txt'] },
    { names: ['runtime'], initial: true, files: ['assets/runtime.1.js'] },
    { names: ['main'], initial: true, files: ['assets/main.3.css', 'assets/main.2.js'] },
  ],
};

const gzipOfFile = (dir: string, file: string) =>
  zlib.gzipSync(fs.readFileSync(path.join(dir, file)), { level: 9 }).length;

describe('bundle sizes (budget 1)', () => {
  let dist: string;
  beforeAll(() => {
    dist = fakeBuild(FILES, STATS);
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }), STOP_TIMEOUT_MS);

  it('gzips at level 9, as the budgets count', () => {
    const bytes = Buffer.from(text('x', 300));
    expect(gzipSize(bytes)).toBe(zlib.gzipSync(bytes, { level: 9 }).length);
    expect(gzipSize(bytes)).toBeLessThanOrEqual(zlib.gzipSync(bytes, { level: 1 }).length);
  });

  it("counts the initial JavaScript of / from the 'main' entry point, without its CSS", () => {
    const sizes = measureBuild(dist);
    expect(sizes.initialJs).toBe(
      gzipOfFile(dist, 'assets/runtime.1.js') + gzipOfFile(dist, 'assets/main.2.js'),
    );
  });

  it('counts a lazy part with every chunk it loads, and leaves the entry point out', () => {
    const sizes = measureBuild(dist);
    expect(Object.keys(sizes.lazy)).toEqual(['wallet']);
    expect(sizes.lazy.wallet).toEqual({
      files: ['assets/532.5.js', 'assets/wallet.4.js'],
      js: gzipOfFile(dist, 'assets/532.5.js') + gzipOfFile(dist, 'assets/wallet.4.js'),
    });
  });

  it('lists every JavaScript and CSS file, initial first, then the biggest first', () => {
    const sizes = measureBuild(dist);
    expect(sizes.files.map((row) => [row.chunk, row.file, row.initial])).toEqual([
      ['main', 'assets/main.2.js', true],
      ['runtime', 'assets/runtime.1.js', true],
      ['main', 'assets/main.3.css', true],
      ['(unnamed)', 'assets/532.5.js', false],
      ['wallet', 'assets/wallet.4.js', false],
    ]);
    for (const row of sizes.files) {
      expect(row.raw).toBe(Buffer.byteLength(FILES[row.file as keyof typeof FILES]));
      expect(row.gzip).toBe(gzipOfFile(dist, row.file));
    }
    expect(sizes.allJs).toBe(
      Object.keys(FILES)
        .filter((file) => file.endsWith('.js'))
        .reduce((sum, file) => sum + gzipOfFile(dist, file), 0),
    );
  });

  it('counts a file listed twice once', () => {
    const sizes: Record<string, number> = { 'a.js': 10, 'b.js': 5, 'c.css': 100 };
    expect(javaScriptBytes(['a.js', 'b.js', 'a.js', 'c.css'], (file) => sizes[file]!)).toBe(15);
  });

  it('says how to make the stats when a directory has no build', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-sizes-empty-'));
    expect(() => readBuildStats(empty)).toThrow(/npm run build/);
    fs.rmSync(empty, { recursive: true, force: true });
  });
});
