/**
 * What every benchmark reports (npm run bench, issue "Speed and size"): one line per budget,
 * with the measured figure beside the limit, PASS or MISS, and the details behind the figure.
 */
export interface BudgetResult {
  /** Which of the budgets, as docs/BENCHMARKS.md lists them: "1. Initial JavaScript". */
  budget: string;
  /** The limit in words: "≤ 125 KB gzip". */
  limit: string;
  /** The figure the verdict rests on: "122.3 KB gzip". */
  measured: string;
  pass: boolean;
  /** Everything else measured on the way: label → figure with its unit. */
  details: Record<string, string>;
}

/** A benchmark: measures one or more budgets, in this process or in the browser. */
export interface Benchmark {
  name: string;
  run(): Promise<BudgetResult[]>;
}

/**
 * Issue 41, part 6: a turn's main-thread work with pictures on (a moment drawn, compressed, kept
 * and shown each turn) at most this many times the same turn's with pictures off.
 */
export const PICTURES_ON_LIMIT = 1.1;

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

export const ms = (value: number) => `${value < 10 ? value.toFixed(2) : Math.round(value)} ms`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const times = (ratio: number) => `${ratio.toFixed(2)}x`;
