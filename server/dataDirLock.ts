/**
 * The lock that keeps two servers off one embedded database directory (two processes on one
 * PGlite directory would corrupt it). The lock file names the process holding it by its pid and
 * the moment that process started, because a pid alone is not an identity: in a container the
 * restarted server (or the npm or shell process that starts it) gets the dead server's pid
 * again, and a plain "is this pid running?" would then refuse the database forever.
 */
import fs from 'node:fs';
import path from 'node:path';

/** How long a new server waits for a live holder to finish shutting down before refusing. */
export const LOCK_WAIT_MS = 10_000;
const POLL_MS = 100;
/** How long a new lock is left before it is read back to make sure it is still ours. */
const SETTLE_MS = 50;

interface LockHolder {
  pid: number;
  /** When the process started (Linux clock ticks since boot); null where that is unknown. */
  started: string | null;
}

/** Lock files this process holds: opening one twice in one process is refused, not waited on. */
const heldHere = new Set<string>();

export interface DataDirLock {
  file: string;
  release(): void;
}

/**
 * Takes `${dataDir}/pglite.lock`. A lock left by a process that is gone (killed, crashed, or a
 * pid now used by another process) is taken over at once; a live holder is waited for up to
 * `waitMs`, then refused with a message that says what to do.
 */
export async function takeDataDirLock(
  dataDir: string,
  waitMs: number = LOCK_WAIT_MS,
): Promise<DataDirLock> {
  const file = path.join(dataDir, 'pglite.lock');
  if (heldHere.has(file)) {
    throw new Error(`The database in ${dataDir} is already open in this server.`);
  }
  const me: LockHolder = { pid: process.pid, started: startTimeOf(process.pid) };
  const deadline = Date.now() + waitMs;
  const mine = JSON.stringify(me);
  for (;;) {
    if (createExclusively(file, mine)) {
      // A server that judged our lock stale a moment before we wrote it may have moved it
      // aside (takeOver puts back what it did not mean to take); the lock is ours only if it
      // still says so once that moment has passed.
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      if (readText(file) === mine) {
        heldHere.add(file);
        return {
          file,
          release() {
            heldHere.delete(file);
            releaseIfOurs(file, me);
          },
        };
      }
      continue;
    }
    const text = readText(file);
    if (text === null) continue; // gone since: try to create it again
    const holder = parseHolder(text);
    if (holder === null || !holds(holder)) {
      takeOver(file, text);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new Error(
        `The database in ${dataDir} is in use by another Taleweaver server (pid ${holder.pid}). ` +
          `Stop it, or set DATA_DIR to another directory.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Whether the process named in a lock file still exists and is the one that wrote it. */
function holds(holder: LockHolder): boolean {
  // Our own pid in a lock we do not hold: written by the pid's previous owner.
  if (holder.pid === process.pid) return false;
  if (!isRunning(holder.pid)) return false;
  const started = startTimeOf(holder.pid);
  return holder.started === null || started === null || started === holder.started;
}

/** Creates the file with `text` unless it exists; false if it does. */
function createExclusively(file: string, text: string): boolean {
  try {
    fs.writeFileSync(file, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  }
}

/**
 * Removes a stale lock whose text was `stale`. The file is first
 * renamed aside, which only one server can do; if what was moved is not the stale lock (another
 * server took it over in between), it is put back where it was, unless a lock is there again.
 */
function takeOver(file: string, stale: string): void {
  const aside = `${file}.${process.pid}.${Date.now()}`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readText(aside) !== stale) fs.linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function readHolder(file: string): LockHolder | null {
  const text = readText(file);
  return text === null ? null : parseHolder(text);
}

function parseHolder(raw: string): LockHolder | null {
  try {
    const text = raw.trim();
    // Servers before this one wrote the bare pid.
    const parsed: unknown = /^\d+$/.test(text)
      ? { pid: Number(text), started: null }
      : JSON.parse(text);
    const { pid, started } = parsed as Partial<LockHolder>;
    if (!Number.isInteger(pid) || (pid as number) <= 0) return null;
    return { pid: pid as number, started: typeof started === 'string' ? started : null };
  } catch {
    return null;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Field 22 of /proc/<pid>/stat: the process's start time in clock ticks since boot. The command
 * name (field 2) is in parentheses and may hold spaces, so fields are counted after its ')'.
 */
export function startTimeOf(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const afterName = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return afterName[19] ?? null;
  } catch {
    return null;
  }
}

function releaseIfOurs(file: string, me: LockHolder): void {
  const holder = readHolder(file);
  if (holder?.pid === me.pid && holder.started === me.started) fs.rmSync(file, { force: true });
}
