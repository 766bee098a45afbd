/**
 * Fault: the embedded database refused to start after a restart. The lock treated any live pid
 * as its holder, so a server restarted in a container (where it gets the dead server's pid) or
 * right after a crash refused itself. Here a real server is killed with SIGKILL in the middle of
 * a burst of result writes and started again on the same DATA_DIR, plainly and in fresh PID
 * namespaces (where every server is pid 1): it must start on the first try with every write it
 * acknowledged.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { freshDataDir, startServer, type RunningServer } from '../e2e/support/server';
import { count, ms, recordFinding } from './support/findings';
import { type Player, saveResult, savedCharacters, signedInPlayer } from './support/players';

const WRITERS = 4;
/** The burst is cut off by the kill once this many writes were acknowledged. */
const ACKNOWLEDGED_BEFORE_KILL = 40;
const CRASHES = 2;
/** `unshare --kill-child` takes the server down with it when the launcher is killed. */
const FRESH_PID_NAMESPACE = ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child'];

jest.setTimeout(180_000);

let dataDir: string;
/** Every server a test started, so a failing test leaves none running. */
const servers: RunningServer[] = [];
beforeEach(() => {
  // The run's template database: the restarts are what is measured, not its creation.
  dataDir = freshDataDir();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.crash()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Writes results from several writers until killed; resolves with the acknowledged names. */
function writeUntilKilled(
  server: RunningServer,
  player: Player,
  round: number,
  onAck: (n: number) => void,
) {
  const acknowledged: string[] = [];
  let sequence = 0;
  const writer = async () => {
    for (;;) {
      const character = `Crash ${round}.${(sequence += 1)}`;
      let status: number;
      try {
        status = await saveResult(server.url, player, character);
      } catch {
        return; // the server is gone
      }
      if (status !== 201) throw new Error(`write ${character} answered ${status}`);
      acknowledged.push(character);
      onAck(acknowledged.length);
    }
  };
  return Promise.all(Array.from({ length: WRITERS }, writer)).then(() => acknowledged);
}

/** Starts the server, counting the attempts it takes (the fault made the first one fail). */
async function restart(launcher: string[] | undefined) {
  const began = performance.now();
  let attempts = 0;
  for (;;) {
    attempts += 1;
    try {
      const server = await startServer({ SERVE_APP: 'false' }, { dataDir, launcher });
      servers.push(server);
      return { server, attempts, startMs: performance.now() - began };
    } catch (error) {
      if (attempts >= 3) throw error;
    }
  }
}

describe.each([
  ['a plain restart', undefined],
  ['a restart in a fresh PID namespace', FRESH_PID_NAMESPACE],
])('SIGKILL mid-write-burst, then %s', (name, launcher) => {
  test('starts on the first try, with every acknowledged write', async () => {
    if (launcher) execFileSync(launcher[0]!, [...launcher.slice(1), 'true']); // can we?
    let { server } = await restart(launcher);
    const player = await signedInPlayer(server.url);

    const acknowledged: string[] = [];
    const attempts: number[] = [];
    const startUps: number[] = [];
    for (let crash = 0; crash < CRASHES; crash += 1) {
      const current = server;
      let killed: Promise<void> | null = null;
      const written = await writeUntilKilled(current, player, crash, (n) => {
        if (n >= ACKNOWLEDGED_BEFORE_KILL && !killed) killed = current.crash();
      });
      await killed;
      acknowledged.push(...written);
      const next = await restart(launcher);
      attempts.push(next.attempts);
      startUps.push(next.startMs);
      server = next.server;
    }

    const saved = await savedCharacters(server.url, player);
    // unshare does not pass SIGTERM on to the server; the last one goes the way the others did.
    await server.crash();
    const savedSet = new Set(saved);
    const missing = acknowledged.filter((character) => !savedSet.has(character));
    const doubled = saved.length - savedSet.size;
    const held = recordFinding({
      fault: 'restart',
      check: `SIGKILL mid-write-burst, ${name}`,
      figures: {
        crashes: count(CRASHES),
        'start attempts after each crash': attempts.join(', '),
        'start-up after each crash': startUps.map(ms).join(', '),
        'writes acknowledged before the kills': count(acknowledged.length),
        'acknowledged writes missing afterwards': count(missing.length),
        'rows saved twice': count(doubled),
      },
      held: attempts.every((n) => n === 1) && missing.length === 0 && doubled === 0,
    });
    expect(attempts).toEqual(Array(CRASHES).fill(1));
    expect(missing).toEqual([]);
    expect(doubled).toBe(0);
    expect(held).toBe(true);
  });
});
