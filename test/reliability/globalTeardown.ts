import fs from 'node:fs';
import path from 'node:path';
import { removeDataTemplate } from '../e2e/support/server';
import { readFindings } from './support/findings';
import { REPORT_FILE, renderReport } from './support/report';

/** Writes docs/RELIABILITY.md after every run, passing or not: a fault not held is reported. */
export default function globalTeardown(): void {
  removeDataTemplate();
  fs.mkdirSync(path.dirname(REPORT_FILE), { recursive: true });
  fs.writeFileSync(REPORT_FILE, renderReport(readFindings(), new Date()));
  console.log(`\nWrote ${path.relative(process.cwd(), REPORT_FILE)}`);
}
