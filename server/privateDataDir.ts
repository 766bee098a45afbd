/**
 * DATA_DIR holds every player's results and the server's keys, so nothing in it is for other
 * users of the machine. The server creates what it writes there private to its own
 * user whatever the umask it was started with (privateFileMode), and a directory left with
 * looser modes (an older version, a copy, a hand-made folder) is tightened before the database
 * opens, or refused with a message that says how.
 */
import fs from 'node:fs';
import path from 'node:path';

/** What the server's files and folders may grant: its own user only. */
const OTHERS = 0o077;

/**
 * From now on every file and folder this process creates is its user's alone (0600 and 0700
 * where the code asks for 0666 and 0777, as PGlite does). For the server's process only: the
 * umask is the process's, and everything the server writes belongs in DATA_DIR.
 */
export function privateFileMode(): void {
  process.umask(process.umask() | OTHERS);
}

/**
 * Makes `dataDir` if missing (0700), and takes group and other permissions off it and off
 * everything in it. Throws, naming the path and the command to run, when a mode cannot be
 * changed (a path another user owns).
 */
export function makePrivateDataDir(dataDir: string): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  tighten(dataDir);
}

function tighten(target: string): void {
  const stat = fs.lstatSync(target);
  // A link is followed by nobody here (the database and keys are plain files and folders).
  if (stat.isSymbolicLink()) return;
  if ((stat.mode & OTHERS) !== 0) {
    try {
      fs.chmodSync(target, stat.mode & 0o7700);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `${target} is readable or writable by other users and cannot be made private (${reason}). ` +
          `Run: chmod -R go-rwx ${JSON.stringify(path.resolve(target))} as its owner, then start again.`,
        { cause: error },
      );
    }
  }
  if (stat.isDirectory()) {
    for (const entry of fs.readdirSync(target)) tighten(path.join(target, entry));
  }
}
