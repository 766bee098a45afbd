/**
 * Prints every JavaScript and CSS chunk of the production build with its gzip size, and checks
 * the budget for the JavaScript the home screen (/) downloads before anything else.
 * Run by `npm run build` after webpack; exits non-zero when the budget is exceeded.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Issue budget: the whole initial JavaScript of / must stay under 125 KB gzip. */
export const INITIAL_JS_BUDGET_BYTES = 125 * 1024;
/** Budgets of lazily loaded parts, with everything each one downloads (issue: wallet 25 KB). */
export const LAZY_BUDGETS_BYTES: Record<string, number> = { wallet: 25 * 1024 };

interface BuildStats {
  entrypoints: Record<string, string[]>;
  groups: Record<string, string[]>;
  chunks: { names: string[]; initial: boolean; files: string[] }[];
}

const dist = path.resolve(process.env.DIST_DIR ?? path.join(__dirname, '..', 'dist'));
const stats = JSON.parse(
  fs.readFileSync(path.join(dist, 'build-stats.json'), 'utf8'),
) as BuildStats;

const gzipSize = (file: string) =>
  zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const rows = stats.chunks
  .flatMap((chunk) =>
    chunk.files
      .filter((file) => /\.(js|css)$/.test(file))
      .map((file) => ({
        chunk: chunk.names.join(',') || '(unnamed)',
        file,
        initial: chunk.initial,
        raw: fs.statSync(path.join(dist, file)).size,
        gzip: gzipSize(file),
      })),
  )
  .sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzip - a.gzip);

console.log('\nChunk                 Loaded     Raw         Gzip        File');
for (const row of rows) {
  console.log(
    `${row.chunk.padEnd(22)}${(row.initial ? 'initial' : 'lazy').padEnd(11)}${kb(row.raw).padEnd(12)}${kb(row.gzip).padEnd(12)}${row.file}`,
  );
}

const jsBytes = (files: string[]) =>
  files.filter((file) => file.endsWith('.js')).reduce((sum, file) => sum + gzipSize(file), 0);

let overBudget = false;
const report = (what: string, bytes: number, budget?: number) => {
  const verdict =
    budget === undefined ? '' : bytes <= budget ? `, within ${kb(budget)}` : `, OVER ${kb(budget)}`;
  if (budget !== undefined && bytes > budget) overBudget = true;
  console.log(`${what.padEnd(34)}${kb(bytes).padStart(9)} gzip${verdict}`);
};

console.log('\nJavaScript downloaded');
report('initially, for /', jsBytes(stats.entrypoints.main ?? []), INITIAL_JS_BUDGET_BYTES);
for (const [name, files] of Object.entries(stats.groups ?? {}).sort()) {
  if (name === 'main') continue;
  report(`later, for '${name}'`, jsBytes(files), LAZY_BUDGETS_BYTES[name]);
}
console.log('');
if (overBudget) process.exit(1);
