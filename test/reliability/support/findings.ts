import fs from 'node:fs';
import path from 'node:path';
import type { FaultId } from '../faults';

/** One check of a fault, as a spec measured it in this run. */
export interface Finding {
  fault: FaultId;
  /** What the check did, in a few words ("SIGKILL mid-write-burst, restart"). */
  check: string;
  /** What was measured: label → figure with its unit ("p99 read" → "412 ms"). */
  figures: Record<string, string>;
  held: boolean;
}

const projectRoot = path.resolve(__dirname, '..', '..', '..');
export const FINDINGS_DIR = path.join(projectRoot, 'test-results', 'reliability');

/**
 * Records a finding for docs/RELIABILITY.md. Call it before asserting, so a check that does not
 * hold is reported with its figures rather than missing. Returns `held` for the assertion.
 */
export function recordFinding(finding: Finding): boolean {
  fs.mkdirSync(FINDINGS_DIR, { recursive: true });
  const slug = `${finding.fault}--${finding.check.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
  fs.writeFileSync(path.join(FINDINGS_DIR, `${slug}.json`), JSON.stringify(finding, null, 2));
  return finding.held;
}

export function readFindings(): Finding[] {
  if (!fs.existsSync(FINDINGS_DIR)) return [];
  return fs
    .readdirSync(FINDINGS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(FINDINGS_DIR, name), 'utf8')) as Finding);
}

/** Figures are strings so each keeps its unit; these format the common ones. */
export const ms = (value: number) => `${Math.round(value)} ms`;
export const count = (value: number) => value.toLocaleString('en-US');
