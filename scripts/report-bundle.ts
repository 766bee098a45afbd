/**
 * Prints every JavaScript and CSS chunk of the production build with its gzip size, and checks
 * the budgets that the build alone can tell: the entry point of the home screen (/) and the
 * wallet's lazy part. Run by `npm run build` after webpack; exits non-zero when one is exceeded.
 * A DevTools build (REDUX_DEVTOOLS=on) is left unminified for reading, so its sizes are printed
 * but held to no budget.
 * (`npm run bench` measures in Chromium what / and a whole game really download.)
 */
import path from 'node:path';
import {
  INITIAL_JS_BUDGET_BYTES,
  LAZY_BUDGETS_BYTES,
  kilobytes as kb,
  measureBuild,
} from './bundleSizes';

const dist = path.resolve(process.env.DIST_DIR ?? path.join(__dirname, '..', 'dist'));
const sizes = measureBuild(dist);
const budgeted = process.env.REDUX_DEVTOOLS !== 'on';

console.log('\nChunk                 Loaded     Raw         Gzip        File');
for (const row of sizes.files) {
  console.log(
    `${row.chunk.padEnd(22)}${(row.initial ? 'initial' : 'lazy').padEnd(11)}${kb(row.raw).padEnd(12)}${kb(row.gzip).padEnd(12)}${row.file}`,
  );
}

let overBudget = false;
const report = (what: string, bytes: number, limit?: number) => {
  const budget = budgeted ? limit : undefined;
  const verdict =
    budget === undefined ? '' : bytes <= budget ? `, within ${kb(budget)}` : `, OVER ${kb(budget)}`;
  if (budget !== undefined && bytes > budget) overBudget = true;
  console.log(`${what.padEnd(34)}${kb(bytes).padStart(9)} gzip${verdict}`);
};

console.log('\nJavaScript downloaded');
report('entry point of /', sizes.initialJs, INITIAL_JS_BUDGET_BYTES);
for (const [name, part] of Object.entries(sizes.lazy)) {
  report(`later, for '${name}'`, part.js, LAZY_BUDGETS_BYTES[name]);
}
console.log(budgeted ? '' : 'A DevTools build (not minified): no budget applies.\n');
if (overBudget) process.exit(1);
