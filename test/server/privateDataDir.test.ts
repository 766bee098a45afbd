/**
 * DATA_DIR is private to the server's user (issue 33): the server started as `npm start` starts
 * it, under umask 000, on a data directory someone left open to everyone, leaves no file or
 * folder in it that group or others may read or write; and the tightening itself, path by path.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { makePrivateDataDir } from '../../server/privateDataDir';
import { DATABASE_START_TIMEOUT_MS } from './support/databases';

const projectRoot = path.resolve(__dirname, '../..');

/** Every path under `dir` (itself included) whose mode grants group or others anything. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (target: string) => {
    const stat = fs.lstatSync(target);
    if ((stat.mode & 0o077) !== 0) {
      found.push(`${path.relative(dir, target) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    }
    if (stat.isDirectory())
      for (const entry of fs.readdirSync(target)) visit(path.join(target, entry));
  };
  visit(dir);
  return found;
}

/** The server, as `npm run serve` runs it, under `umask 000`, until it says it is running. */
function startUnderUmask000(
  env: NodeJS.ProcessEnv,
): Promise<{ pid: number; stop: () => Promise<void> }> {
  const child = spawn(
    'sh',
    ['-c', 'umask 000 && exec "$0" --import tsx server/index.ts', process.execPath],
    { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const output: string[] = [];
  readline.createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`The server exited (${code}) before it ran:\n${output.join('\n')}`)),
    );
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      if (line.includes('Taleweaver is running')) {
        child.removeAllListeners('exit');
        resolve({ pid: child.pid!, stop });
      }
    });
  });
}

describe('the data directory', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-private-')), 'data');
  });
  afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

  test(
    'is private to the server after a start under umask 000 on a directory left open',
    async () => {
      // Left open to everyone: the folder, a folder and a file in it.
      fs.mkdirSync(path.join(dataDir, 'old'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'old', 'notes.txt'), 'x');
      for (const [target, mode] of [
        [dataDir, 0o777],
        [path.join(dataDir, 'old'), 0o777],
        [path.join(dataDir, 'old', 'notes.txt'), 0o666],
      ] as const) {
        fs.chmodSync(target, mode);
      }
      const { pid, stop } = await startUnderUmask000({
        DATA_DIR: dataDir,
        PORT: '0',
        SERVE_APP: 'false',
        LOG_LEVEL: 'silent',
      });
      try {
        // What the start wrote: the embedded database, the keys and the lock.
        for (const made of ['pglite/PG_VERSION', 'signing-key.jwk', 'secret-key', 'pglite.lock']) {
          expect(fs.existsSync(path.join(dataDir, made))).toBe(true);
        }
        expect(openToOthers(dataDir)).toEqual([]);
        // And whatever the database writes later (a new table's files, the next WAL segment):
        // the running server's own umask (exec kept the shell's pid) takes everything from others.
        const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
        expect(status).toMatch(/^Umask:\s+0077$/m);
      } finally {
        await stop();
      }
      // Including what it wrote on its way out.
      expect(openToOthers(dataDir)).toEqual([]);
    },
    DATABASE_START_TIMEOUT_MS,
  );

  test('is tightened path by path, keeping the owner’s own bits', () => {
    fs.mkdirSync(path.join(dataDir, 'deep', 'er'), { recursive: true });
    const script = path.join(dataDir, 'deep', 'er', 'run.sh');
    fs.writeFileSync(script, '#!/bin/sh\n');
    fs.chmodSync(script, 0o755);
    fs.chmodSync(path.join(dataDir, 'deep'), 0o775);
    makePrivateDataDir(dataDir);
    expect(openToOthers(dataDir)).toEqual([]);
    expect(fs.statSync(script).mode & 0o777).toBe(0o700);
  });

  test('leaves what a link points at alone', () => {
    const outside = path.join(path.dirname(dataDir), 'shared.txt');
    fs.writeFileSync(outside, 'not ours to change');
    fs.chmodSync(outside, 0o644);
    fs.mkdirSync(dataDir);
    fs.symlinkSync(outside, path.join(dataDir, 'link'));
    makePrivateDataDir(dataDir);
    expect(fs.statSync(outside).mode & 0o777).toBe(0o644);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
  });
});
