/**
 * The embedded database's directory lock (server/dataDirLock.ts): a lock whose process is gone,
 * or whose pid now belongs to another process, is taken over at once; a live holder is waited
 * for, then refused.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTimeOf, takeDataDirLock } from '../../server/dataDirLock';

let dataDir: string;
let lockFile: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-lock-'));
  lockFile = path.join(dataDir, 'pglite.lock');
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A process that lives until killed (or for `ms`), and its lock-file identity. */
async function liveProcess(ms = 60_000): Promise<{ pid: number; started: string | null }> {
  const child = spawn(process.execPath, ['-e', `setTimeout(() => {}, ${ms})`], {
    stdio: 'ignore',
  });
  children.push(child);
  await new Promise((resolve) => child.once('spawn', resolve));
  const pid = child.pid!;
  return { pid, started: startTimeOf(pid) };
}

const writeLock = (holder: unknown) => fs.writeFileSync(lockFile, JSON.stringify(holder));
const lockHolder = () => JSON.parse(fs.readFileSync(lockFile, 'utf8')) as { pid: number };

test('a lock whose process is gone is taken over at once', async () => {
  const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
  writeLock({ pid: deadPid, started: '1' });
  const lock = await takeDataDirLock(dataDir, 0);
  expect(lockHolder()).toEqual({ pid: process.pid, started: startTimeOf(process.pid) });
  lock.release();
  expect(fs.existsSync(lockFile)).toBe(false);
});

test('the bare-pid lock of an older server is read too', async () => {
  const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
  fs.writeFileSync(lockFile, `${deadPid}\n`);
  const lock = await takeDataDirLock(dataDir, 0);
  expect(lockHolder().pid).toBe(process.pid);
  lock.release();
});

test('a lock naming our own pid, left by its previous owner, is taken over at once', async () => {
  writeLock({ pid: process.pid, started: 'an earlier life' });
  const lock = await takeDataDirLock(dataDir, 0);
  expect(lockHolder().pid).toBe(process.pid);
  lock.release();
});

test('a lock whose pid now belongs to another process is taken over at once', async () => {
  const other = await liveProcess();
  if (other.started === null) throw new Error('this test needs /proc (Linux)');
  writeLock({ pid: other.pid, started: `${Number(other.started) - 1}` });
  const lock = await takeDataDirLock(dataDir, 0);
  expect(lockHolder().pid).toBe(process.pid);
  lock.release();
});

test('a live holder is refused after the wait, and its lock is left alone', async () => {
  const holder = await liveProcess();
  writeLock(holder);
  await expect(takeDataDirLock(dataDir, 300)).rejects.toThrow(
    `is in use by another Taleweaver server (pid ${holder.pid})`,
  );
  expect(lockHolder()).toEqual(holder);
});

test('a holder that exits during the wait hands the lock over', async () => {
  const holder = await liveProcess(300);
  writeLock(holder);
  const lock = await takeDataDirLock(dataDir, 30_000);
  expect(lockHolder().pid).toBe(process.pid);
  lock.release();
});

test('one process cannot take the same lock twice; release leaves a lock it lost alone', async () => {
  const lock = await takeDataDirLock(dataDir, 0);
  await expect(takeDataDirLock(dataDir, 0)).rejects.toThrow('already open in this server');
  const holder = await liveProcess();
  writeLock(holder);
  lock.release();
  expect(lockHolder()).toEqual(holder);
});

test('servers taking over one stale lock at the same moment: exactly one gets it', async () => {
  const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
  const lockModule = path.resolve(__dirname, '../../server/dataDirLock.ts');
  // The one that takes the lock keeps it until the round is over: a holder that exited early
  // would leave a stale lock that a contender slow to start (a busy machine) rightly takes.
  const contender = `
    const { takeDataDirLock } = require(${JSON.stringify(lockModule)});
    takeDataDirLock(${JSON.stringify(dataDir)}, 1500).then(
      () => { console.log('took'); setInterval(() => {}, 1000); },
      () => { console.log('refused'); process.exit(0); },
    );`;
  for (let round = 0; round < 3; round += 1) {
    writeLock({ pid: deadPid, started: '1' });
    const contenders = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', '-e', contender]);
      children.push(child);
      const outcome = new Promise<string>((resolve) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('\n')) resolve(output.trim());
        });
        child.once('exit', () => resolve(output.trim()));
      });
      return { child, outcome };
    });
    const outcomes = await Promise.all(contenders.map(({ outcome }) => outcome));
    expect(outcomes.sort()).toEqual(['refused', 'refused', 'refused', 'took']);
    await Promise.all(
      contenders.map(({ child }) =>
        child.exitCode !== null || child.signalCode !== null
          ? undefined
          : new Promise((resolve) => {
              child.once('exit', resolve);
              child.kill('SIGKILL');
            }),
      ),
    );
    fs.rmSync(lockFile, { force: true });
  }
}, 60_000);
