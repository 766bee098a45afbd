/**
 * `npm start` reuses a build that is current (scripts/build-if-stale.ts): the fingerprint of what
 * a build is made from, and whether a build directory is a finished build of it, on a small
 * project laid out like this one in a temporary directory.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  STAMP_FILE,
  beginBuild,
  buildFingerprint,
  buildInputs,
  distState,
  pendingFile,
  stampBuild,
} from '../../scripts/build-if-stale';

const ENV: NodeJS.ProcessEnv = { HOME: '/home/player', SUPABASE_URL: 'https://backend.test' };

let root: string;
let dist: string;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

/** What webpack and the size report leave in dist/: the page, the chunks and their list. */
function webpackBuild(): void {
  fs.rmSync(dist, { recursive: true, force: true });
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html>');
  fs.writeFileSync(path.join(dist, 'assets', 'main.1.js'), 'main()');
  fs.writeFileSync(
    path.join(dist, 'build-stats.json'),
    JSON.stringify({ chunks: [{ files: ['assets/main.1.js'] }] }),
  );
}

/** `npm run build`, whole: begin, build, stamp. */
function fullBuild(env = ENV): boolean {
  beginBuild(root, dist, env);
  webpackBuild();
  return stampBuild(root, dist, env);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'build-if-stale-'));
  dist = path.join(root, 'dist');
  write('package.json', '{"name":"game"}');
  write('package-lock.json', '{"lockfileVersion":3}');
  write('tsconfig.json', '{}');
  write(
    'webpack.config.ts',
    "import path from 'node:path';\nimport { headers } from './server/headerFiles';\n",
  );
  write('server/headerFiles.ts', "export { policy as headers } from './policy';\n");
  write('server/policy.ts', "export const policy = 'default-src self';\n");
  write('server/index.ts', 'listen();\n');
  write('scripts/intl-parts.ts', "import { parts } from '../src/app/intl/messageParts';\n");
  write('scripts/bench/index.ts', 'bench();\n');
  write('src/index.tsx', "import './app/App';\n");
  write('src/app/App.tsx', 'export const App = 1;\n');
  write('src/app/intl/messageParts.ts', 'export const parts = [];\n');
  write('src/app/intl/messages/en.json', '{"hello":"Hello"}');
  write('src/app/intl/compiled/en.json', '{"hello":[{"type":0,"value":"Hello"}]}');
  write('common/connectSources.ts', 'export const sources = [];\n');
  write('public/index.html', '<!doctype html>');
  write('public/characters/hero.png', 'png');
});

afterEach(() => {
  fs.rmSync(pendingFile(dist), { force: true });
  fs.rmSync(root, { recursive: true, force: true });
});

describe('the inputs of a build', () => {
  test('src, common and public whole, the configuration, and the project files the build scripts import', () => {
    expect(buildInputs(root)).toEqual([
      'common/connectSources.ts',
      'package-lock.json',
      'package.json',
      'public/characters/hero.png',
      'public/index.html',
      'scripts/intl-parts.ts',
      'server/headerFiles.ts',
      'server/policy.ts',
      'src/app/App.tsx',
      'src/app/intl/messageParts.ts',
      'src/app/intl/messages/en.json',
      'src/index.tsx',
      'tsconfig.json',
      'webpack.config.ts',
    ]);
  });

  test.each([
    'src/app/App.tsx',
    'src/app/intl/messages/en.json',
    'public/characters/hero.png',
    'common/connectSources.ts',
    'webpack.config.ts',
    'server/policy.ts',
    'scripts/intl-parts.ts',
    'package-lock.json',
    'tsconfig.json',
  ])('a change to %s changes the fingerprint', (file) => {
    const before = buildFingerprint(root, ENV);
    fs.appendFileSync(path.join(root, file), ' ');
    expect(buildFingerprint(root, ENV)).not.toBe(before);
  });

  test('so do a new file, a removed one and a renamed one', () => {
    const fingerprints = [buildFingerprint(root, ENV)];
    write('src/app/New.tsx', 'export {};\n');
    fingerprints.push(buildFingerprint(root, ENV));
    fs.renameSync(path.join(root, 'src/app/New.tsx'), path.join(root, 'src/app/Newer.tsx'));
    fingerprints.push(buildFingerprint(root, ENV));
    fs.rmSync(path.join(root, 'src/app/Newer.tsx'));
    fingerprints.push(buildFingerprint(root, ENV));
    expect(new Set(fingerprints).size).toBe(3);
    expect(fingerprints[3]).toBe(fingerprints[0]);
  });

  test('and a build setting from the environment, but not the rest of it', () => {
    const before = buildFingerprint(root, ENV);
    expect(buildFingerprint(root, { ...ENV, SUPABASE_URL: 'https://other.test' })).not.toBe(before);
    expect(buildFingerprint(root, { ...ENV, REDUX_DEVTOOLS: 'on' })).not.toBe(before);
    expect(buildFingerprint(root, { ...ENV, HOME: '/root', PORT: '8099' })).toBe(before);
  });

  test("the server, the benchmarks and what the build generates are not the build's inputs", () => {
    const before = buildFingerprint(root, ENV);
    fs.appendFileSync(path.join(root, 'server/index.ts'), 'more();\n');
    fs.appendFileSync(path.join(root, 'scripts/bench/index.ts'), 'more();\n');
    fs.appendFileSync(path.join(root, 'src/app/intl/compiled/en.json'), ' ');
    fs.mkdirSync(path.join(root, 'data'));
    fs.writeFileSync(path.join(root, 'data', 'pglite'), 'rows');
    expect(buildFingerprint(root, ENV)).toBe(before);
  });
});

describe('whether dist/ is current', () => {
  test('not before any build', () => {
    expect(distState(dist, buildFingerprint(root, ENV))).toEqual({
      current: false,
      reason: 'no build',
    });
  });

  test('after a finished build, until an input changes', () => {
    expect(fullBuild()).toBe(true);
    expect(distState(dist, buildFingerprint(root, ENV))).toEqual({ current: true });
    fs.appendFileSync(path.join(root, 'src/app/App.tsx'), 'export const more = 2;\n');
    expect(distState(dist, buildFingerprint(root, ENV))).toEqual({
      current: false,
      reason: 'changed',
    });
  });

  test('not when the same sources are to be built with other settings', () => {
    fullBuild();
    expect(
      distState(dist, buildFingerprint(root, { ...ENV, CONNECT_SRC: 'https://x.test' })),
    ).toEqual({ current: false, reason: 'changed' });
  });

  test('not after a build that stopped half-way, though a finished one was there before', () => {
    fullBuild();
    // The next build begins, and is stopped before it finishes (webpack killed, or the size
    // report failing): dist/ holds whatever it had got to, and no stamp.
    beginBuild(root, dist, ENV);
    expect(distState(dist, buildFingerprint(root, ENV))).toEqual({
      current: false,
      reason: 'no stamp',
    });
    webpackBuild();
    expect(distState(dist, buildFingerprint(root, ENV))).toEqual({
      current: false,
      reason: 'no stamp',
    });
  });

  test('not when an input changed while it was built: it is not stamped', () => {
    beginBuild(root, dist, ENV);
    webpackBuild();
    fs.appendFileSync(path.join(root, 'src/app/App.tsx'), 'export const saved = 3;\n');
    expect(stampBuild(root, dist, ENV)).toBe(false);
    expect(fs.existsSync(path.join(dist, STAMP_FILE))).toBe(false);
    expect(distState(dist, buildFingerprint(root, ENV)).current).toBe(false);
  });

  test('not stamped by --stamp alone, with no build begun', () => {
    webpackBuild();
    expect(stampBuild(root, dist, ENV)).toBe(false);
    expect(distState(dist, buildFingerprint(root, ENV)).current).toBe(false);
  });

  test('not when a file of its chunks is gone, or its stamp is unreadable', () => {
    fullBuild();
    fs.rmSync(path.join(dist, 'assets', 'main.1.js'));
    expect(distState(dist, buildFingerprint(root, ENV))).toEqual({
      current: false,
      reason: 'incomplete',
    });
    fullBuild();
    fs.writeFileSync(path.join(dist, STAMP_FILE), '{"fingerp');
    expect(distState(dist, buildFingerprint(root, ENV))).toEqual({
      current: false,
      reason: 'no stamp',
    });
  });
});
