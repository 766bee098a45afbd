/**
 * The sizes of a production build, as the size budgets count them: every JavaScript and CSS
 * file of every chunk with its gzip size (level 9), the JavaScript the home screen (/) loads
 * before anything else, and what each lazily loaded part downloads in all. Read from the
 * build-stats.json that webpack.config.ts writes beside the build. Used by the build's own report
 * (scripts/report-bundle.ts) and by `npm run bench` (scripts/bench/bundle.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Speed-and-size budget 1: the whole initial JavaScript of / at most 125 KB gzip. */
export const INITIAL_JS_BUDGET_BYTES = 125 * 1024;
/** Budgets of lazily loaded parts, with everything each one downloads (the wallet: 25 KB). */
export const LAZY_BUDGETS_BYTES: Record<string, number> = { wallet: 25 * 1024 };
/**
 * Every JavaScript file a whole game downloads, from the landing to the leaderboard and the
 * profile: at most 230 KB gzip.
 */
export const WHOLE_GAME_JS_BUDGET_BYTES = 230 * 1024;
/**
 * Budget 1 over the wire: the JavaScript and CSS a whole game receives (the leaderboard and
 * profile pages included), fonts apart.
 */
export const WHOLE_GAME_WIRE_BUDGET_BYTES = 200 * 1024;

/** What webpack.config.ts's BuildStatsPlugin writes to build-stats.json. */
export interface BuildStats {
  entrypoints: Record<string, string[]>;
  /** Named chunk groups (import() with a webpackChunkName): every file each one loads. */
  groups: Record<string, string[]>;
  chunks: { names: string[]; initial: boolean; files: string[] }[];
}

export interface ChunkFile {
  /** The chunk's names, or '(unnamed)' for a chunk webpack split off on its own. */
  chunk: string;
  file: string;
  initial: boolean;
  raw: number;
  gzip: number;
}

export interface BuildSizes {
  /** Every JavaScript and CSS file, initial ones first, then the biggest first. */
  files: ChunkFile[];
  /** Gzip bytes of the JavaScript / loads up front (the 'main' entry point). */
  initialJs: number;
  /** Each named lazy part, by name: every file it loads and the gzip bytes of their JavaScript. */
  lazy: Record<string, { files: string[]; js: number }>;
  /** Gzip bytes of every JavaScript file of the build. */
  allJs: number;
}

/** The size of `bytes` gzipped at level 9, as the budgets count it. */
export const gzipSize = (bytes: Uint8Array): number => zlib.gzipSync(bytes, { level: 9 }).length;

export const isJavaScript = (file: string): boolean => file.endsWith('.js');

/** Gzip bytes of the JavaScript among `files`, each counted once. */
export function javaScriptBytes(
  files: readonly string[],
  gzipOf: (file: string) => number,
): number {
  return [...new Set(files)].filter(isJavaScript).reduce((sum, file) => sum + gzipOf(file), 0);
}

export function readBuildStats(distDir: string): BuildStats {
  const file = path.join(distDir, 'build-stats.json');
  if (!fs.existsSync(file)) {
    throw new Error(`No ${file}: build the app first (npm run build, DIST_DIR=${distDir})`);
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as BuildStats;
}

/** Sizes every JavaScript and CSS file of the build in `distDir`. */
export function measureBuild(distDir: string, stats = readBuildStats(distDir)): BuildSizes {
  const gzipCache = new Map<string, number>();
  const gzipOf = (file: string) => {
    let size = gzipCache.get(file);
    if (size === undefined) {
      size = gzipSize(fs.readFileSync(path.join(distDir, file)));
      gzipCache.set(file, size);
    }
    return size;
  };
  const files = stats.chunks
    .flatMap((chunk) =>
      chunk.files
        .filter((file) => /\.(js|css)$/.test(file))
        .map((file) => ({
          chunk: chunk.names.join(',') || '(unnamed)',
          file,
          initial: chunk.initial,
          raw: fs.statSync(path.join(distDir, file)).size,
          gzip: gzipOf(file),
        })),
    )
    .sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzip - a.gzip);
  const lazy = Object.fromEntries(
    Object.entries(stats.groups ?? {})
      .filter(([name]) => !(name in stats.entrypoints))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, groupFiles]) => [
        name,
        { files: groupFiles, js: javaScriptBytes(groupFiles, gzipOf) },
      ]),
  );
  return {
    files,
    initialJs: javaScriptBytes(stats.entrypoints.main ?? [], gzipOf),
    lazy,
    allJs: javaScriptBytes(
      files.map((row) => row.file),
      gzipOf,
    ),
  };
}

export const kilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
