/**
 * What the browser benchmarks share: the build they measure (DIST_DIR, as webpack and the server
 * read it) and pages of their own, bundled at bench time with esbuild for production and laid
 * out like the build (index.html, assets/), so the real server serves them as it serves the app.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';

const projectRoot = path.resolve(__dirname, '..', '..');

/** The built app the benchmarks measure: DIST_DIR, else dist/. */
export function distDir(): string {
  const dir = path.resolve(process.env.DIST_DIR ?? path.join(projectRoot, 'dist'));
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`No built app at ${dir}: run 'npm run build' (DIST_DIR=${dir}) first`);
  }
  return dir;
}

/**
 * Bundles `entry` (a file under scripts/bench/pages/) as a production build, minified, into a
 * fresh temporary directory, with an index.html that is the built app's own page with the app's
 * scripts and styles swapped for this one script, loaded the same way (deferred, in the head).
 * Returns the directory (index.html, assets/, the icon); the caller removes it.
 */
export async function bundleBenchPage(entry: string, appDist: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `taleweaver-bench-${path.parse(entry).name}-`));
  const result = await build({
    entryPoints: [path.join(__dirname, 'pages', entry)],
    outdir: path.join(dir, 'assets'),
    entryNames: '[name].[hash]',
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    jsx: 'automatic',
    metafile: true,
    logLevel: 'warning',
    define: {
      'process.env.NODE_ENV': '"production"',
      'process.env.SUPABASE_URL': '""',
      'process.env.SUPABASE_PUBLISHABLE_KEY': '""',
      // As the production build: DevTools left out (src/app/store.ts).
      'process.env.REDUX_DEVTOOLS': '""',
    },
    // The pages never show the app's styles or pictures; only their code runs.
    loader: {
      '.css': 'empty',
      '.png': 'empty',
      '.svg': 'empty',
      '.woff': 'empty',
      '.woff2': 'empty',
    },
  });
  const output = Object.keys(result.metafile.outputs).find((file) => file.endsWith('.js'));
  if (!output) throw new Error(`esbuild wrote no script for ${entry}`);
  const script = `/assets/${path.basename(output)}`;
  const appPage = fs.readFileSync(path.join(appDist, 'index.html'), 'utf8');
  const page = appPage
    .replace(/<script\b[^>]*><\/script>/g, '')
    .replace(/<link\b[^>]*rel="?stylesheet"?[^>]*>/g, '')
    .replace('</head>', `<script defer src=${script}></script></head>`);
  fs.writeFileSync(path.join(dir, 'index.html'), page);
  // The page asks for the app's icon too, so both pages make the same requests besides scripts.
  const icon = path.join(appDist, 'favicon.svg');
  if (fs.existsSync(icon)) fs.copyFileSync(icon, path.join(dir, 'favicon.svg'));
  return dir;
}

/**
 * A fresh browser context for a benchmark. The benchmarks run under tsx, whose esbuild keeps
 * function names by wrapping them in `__name(...)`; a function Playwright sends to the page
 * (addInitScript, evaluate) carries those calls with it, so the page gets a `__name` that does
 * nothing. (Jest's ts-jest adds no such calls, so the e2e tests never need it.)
 */
export async function newBenchContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  return context;
}
