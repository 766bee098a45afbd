/**
 * `npm start` reuses the production build in dist/ when it is current, that is when nothing it is
 * built from has changed since it was made, and builds (`npm run build`) otherwise; `npm run
 * build` always builds. What a build is made from is summed up in a fingerprint: the content of
 * every input file and the build settings read from the environment (below). A build that
 * finishes writes it into dist/ as its stamp, last of all; a build that stops half-way leaves
 * none, so the next start builds again.
 *
 *   tsx scripts/build-if-stale.ts           npm start: build unless dist/ is current
 *   tsx scripts/build-if-stale.ts --begin   npm run build, first: forget dist/'s stamp, and
 *                                           note the fingerprint of what is about to be built
 *   tsx scripts/build-if-stale.ts --stamp   npm run build, last (after webpack and the size
 *                                           report): stamp dist/ with that fingerprint, unless
 *                                           an input changed while it was built
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Every file under these is an input: the app's code, styles, pictures, fonts and message
 * catalogues (src/), what the SPA shares with the server (common/), and what is copied as it
 * is or is the page's template (public/).
 */
const INPUT_DIRS = ['src', 'common', 'public'];
/**
 * Made by the build itself (`npm run intl:compile`) from inputs that are counted (the
 * catalogues under src/app/intl/messages, the font package, the scripts below): left out, so a
 * fingerprint taken before the build is the one taken after it.
 */
const GENERATED_DIRS = ['src/app/intl/compiled'];
/**
 * Files read by the build besides those: the packages (the lock file stands for node_modules),
 * the TypeScript settings, and the scripts `npm run build` runs, each with the project files it
 * imports (webpack.config.ts imports the header functions from server/, for instance).
 */
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];
const ENTRY_FILES = [
  'webpack.config.ts',
  // A loader of the build's (webpack.config.ts names it by its path).
  'scripts/pureReactRouter.ts',
  'scripts/intl-parts.ts',
  'scripts/korean-font.ts',
];
/**
 * The environment the build reads (webpack.config.ts: DefinePlugin and the headers of
 * dist/_headers). DIST_DIR is not one: it says where the build goes, and so where its stamp is.
 */
export const BUILD_ENV = [
  'SUPABASE_URL',
  'SUPABASE_PUBLISHABLE_KEY',
  'SUPABASE_ANON_KEY',
  'CONNECT_SRC',
  'REDUX_DEVTOOLS',
] as const;

/** The stamp a finished build leaves in dist/ (beside build-stats.json). */
export const STAMP_FILE = 'build-stamp.json';

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'];

function filesUnder(dir: string, skip: ReadonlySet<string>): string[] {
  if (skip.has(dir) || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full, skip);
    return entry.isFile() ? [full] : [];
  });
}

/** The project file an import of `specifier` from `from` names, if it is a relative one. */
function resolveRelative(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base,
    ...SOURCE_EXTENSIONS.map((extension) => base + extension),
    ...SOURCE_EXTENSIONS.map((extension) => path.join(base, `index${extension}`)),
  ];
  return candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile()) ?? null;
}

const IMPORTS = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

/** `entries` and every project file they import, directly or not (packages aside). */
export function importClosure(entries: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = entries.filter((file) => fs.existsSync(file));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!SOURCE_EXTENSIONS.includes(path.extname(file)) || path.extname(file) === '.json') continue;
    for (const [, specifier] of fs.readFileSync(file, 'utf8').matchAll(IMPORTS)) {
      const target = resolveRelative(file, specifier!);
      if (target && !seen.has(target)) queue.push(target);
    }
  }
  return [...seen];
}

/** Every input file of a build of the project at `root`, relative to it, sorted. */
export function buildInputs(root: string): string[] {
  const skip = new Set(GENERATED_DIRS.map((dir) => path.join(root, dir)));
  const files = new Set([
    ...INPUT_DIRS.flatMap((dir) => filesUnder(path.join(root, dir), skip)),
    ...INPUT_FILES.map((file) => path.join(root, file)).filter((file) => fs.existsSync(file)),
    ...importClosure(ENTRY_FILES.map((file) => path.join(root, file))),
  ]);
  return [...files]
    .filter((file) => ![...skip].some((dir) => file.startsWith(dir + path.sep)))
    .map((file) => path.relative(root, file).split(path.sep).join('/'))
    .filter((file) => !file.startsWith('../') && !file.startsWith('node_modules/'))
    .sort();
}

/**
 * The fingerprint of what a build of `root` is made from: every input file's path and content,
 * and the build settings in `env`. Equal fingerprints, equal builds.
 */
export function buildFingerprint(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash('sha256');
  for (const file of buildInputs(root)) {
    hash.update(`file ${file}\0`);
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  for (const name of BUILD_ENV) hash.update(`env ${name}=${env[name] ?? '(unset)'}\0`);
  return hash.digest('hex');
}

export type DistState =
  | { current: true }
  | { current: false; reason: 'no build' | 'no stamp' | 'incomplete' | 'changed' };

/**
 * Whether the build in `distDir` is current for `fingerprint`: it has its page, every file its
 * chunks name, and the stamp of a finished build of exactly these inputs.
 */
export function distState(distDir: string, fingerprint: string): DistState {
  if (!fs.existsSync(path.join(distDir, 'index.html')))
    return { current: false, reason: 'no build' };
  const stampFile = path.join(distDir, STAMP_FILE);
  if (!fs.existsSync(stampFile)) return { current: false, reason: 'no stamp' };
  let stamped: unknown;
  try {
    stamped = (JSON.parse(fs.readFileSync(stampFile, 'utf8')) as { fingerprint?: unknown })
      .fingerprint;
  } catch {
    return { current: false, reason: 'no stamp' };
  }
  if (stamped !== fingerprint) return { current: false, reason: 'changed' };
  const statsFile = path.join(distDir, 'build-stats.json');
  if (!fs.existsSync(statsFile)) return { current: false, reason: 'incomplete' };
  const stats = JSON.parse(fs.readFileSync(statsFile, 'utf8')) as {
    chunks?: { files?: string[] }[];
  };
  const files = (stats.chunks ?? []).flatMap((chunk) => chunk.files ?? []);
  if (!files.every((file) => fs.existsSync(path.join(distDir, file)))) {
    return { current: false, reason: 'incomplete' };
  }
  return { current: true };
}

/** Where --begin notes the fingerprint for --stamp: outside dist/, which webpack empties. */
export function pendingFile(distDir: string): string {
  const key = createHash('sha256').update(path.resolve(distDir)).digest('hex').slice(0, 16);
  return path.join(os.tmpdir(), `taleweaver-build-${key}.json`);
}

/** A build begins: dist/ is no longer a finished build of anything, whatever happens next. */
export function beginBuild(root: string, distDir: string, env: NodeJS.ProcessEnv): string {
  fs.rmSync(path.join(distDir, STAMP_FILE), { force: true });
  const fingerprint = buildFingerprint(root, env);
  fs.writeFileSync(pendingFile(distDir), JSON.stringify({ fingerprint }));
  return fingerprint;
}

/**
 * A build has finished: dist/ gets its stamp, if the inputs are still the ones it began with
 * (a file saved during the build may or may not be in it). Written whole, then renamed, so a
 * stamp is never half there. Returns whether it stamped.
 */
export function stampBuild(root: string, distDir: string, env: NodeJS.ProcessEnv): boolean {
  const pending = pendingFile(distDir);
  let began: unknown = null;
  try {
    began = (JSON.parse(fs.readFileSync(pending, 'utf8')) as { fingerprint?: unknown }).fingerprint;
  } catch {
    // No build began here (or its note is gone): nothing to vouch for.
  }
  fs.rmSync(pending, { force: true });
  const fingerprint = buildFingerprint(root, env);
  if (began !== fingerprint) return false;
  const stampFile = path.join(distDir, STAMP_FILE);
  const written = `${stampFile}.${process.pid}.tmp`;
  fs.writeFileSync(written, `${JSON.stringify({ fingerprint }, null, 2)}\n`);
  fs.renameSync(written, stampFile);
  return true;
}

function main(): void {
  const root = path.resolve(__dirname, '..');
  const distDir = path.resolve(process.env.DIST_DIR ?? path.join(root, 'dist'));
  const shown = path.relative(process.cwd(), distDir) || '.';
  const [command] = process.argv.slice(2);
  if (command === '--begin') {
    beginBuild(root, distDir, process.env);
    return;
  }
  if (command === '--stamp') {
    if (!stampBuild(root, distDir, process.env)) {
      console.warn(
        `The sources changed while ${shown}/ was built: not stamped as current, so the next npm start builds again.`,
      );
    }
    return;
  }
  if (command !== undefined) throw new Error(`Unknown argument ${command}`);

  const state = distState(distDir, buildFingerprint(root, process.env));
  if (state.current) {
    console.log(`${shown}/ is current (built from this checkout); starting`);
    return;
  }
  const why = {
    'no build': `no build in ${shown}/`,
    'no stamp': `${shown}/ has no stamp of a finished build`,
    incomplete: `${shown}/ is missing files`,
    changed: `what ${shown}/ is built from has changed since`,
  }[state.reason];
  console.log(`building... (${why})`);
  // npm's own script runner when run by npm (npm start), else the npm on the PATH.
  const npm = process.env.npm_execpath;
  const build = npm
    ? spawnSync(process.execPath, [npm, 'run', 'build'], { stdio: 'inherit' })
    : spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.error) throw build.error;
  process.exitCode = build.status ?? 1;
}

if (require.main === module) main();
