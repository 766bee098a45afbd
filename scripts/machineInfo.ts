/**
 * The machine and versions a generated report was measured on (docs/BENCHMARKS.md,
 * docs/RELIABILITY.md), and the markdown helpers both reports use.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const projectRoot = path.resolve(__dirname, '..');

/** The first line a command prints for its version, or 'not found'. */
export function commandVersion(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .trim()
      .split('\n')[0]!;
  } catch {
    return 'not found';
  }
}

export function packageVersion(name: string): string {
  try {
    const file = path.join(projectRoot, 'node_modules', name, 'package.json');
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'not installed';
  }
}

/** Cores, memory, Node, the browser the tests drive, PostgreSQL and PGlite. */
export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return (
    `${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB · ` +
    `Node ${process.version} · ` +
    `${commandVersion(process.env.CHROME_PATH ?? '/usr/bin/chromium', ['--version'])} · ` +
    `${commandVersion('psql', ['--version'])} · PGlite ${packageVersion('@electric-sql/pglite')}`
  );
}

/** Text made safe for one markdown table cell. */
export const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
