/**
 * The faults the reliability suite guards against, in the order docs/RELIABILITY.md lists them.
 * Each `*.reliability.ts` spec records what it measured against one of these ids
 * (support/findings.ts); the report marks a fault held only when every check recorded for it held.
 */
export const FAULTS = {
  restart: {
    title: 'The embedded database starts again after a crash or restart',
    mustHold:
      'After SIGKILL mid-write-burst, or a new process that reuses the dead one’s pid, the ' +
      'server on the same DATA_DIR starts on the first try and every acknowledged write is there.',
  },
  load: {
    title: 'PGlite holds under load',
    mustHold:
      '200 leaderboard readers and 20 result writers for 20 s on PGlite: p99 at most 1 s for ' +
      'reads and writes, no timeouts, no lost or doubled rows.',
  },
  nonce: {
    title: 'A stranger cannot block a wallet’s sign-in',
    mustHold:
      'A stranger asking for nonces for the victim’s address between the victim’s nonce and ' +
      'login does not stop the victim signing in; each nonce still works only once.',
  },
  headers: {
    title: 'Security headers on every response',
    mustHold:
      'Content-Security-Policy (scripts from the app’s origin, connect-src the backend and the ' +
      'provider hosts, frame-ancestors none), nosniff and Referrer-Policy on the page, assets, ' +
      'API and errors; no source maps served; Custom and Local providers still work.',
  },
  twoTabs: {
    title: 'Two tabs on one story lose nothing silently',
    mustHold:
      'Two tabs making choices on one story: every paragraph a player saw is in some saved ' +
      'record, or the player was warned.',
  },
  replies: {
    title: 'Model replies do not lose text',
    mustHold:
      'Unescaped inner quotes keep every word, no option is blank or invisible, every restored ' +
      'or imported stat is inside the spec’s range (fast-check, at least 10,000 replies per property).',
  },
  busyMachine: {
    title: 'The tests hold on a busy machine',
    mustHold:
      'The embedded database starts well inside the test hooks’ timeout, and CI runs lint and ' +
      'the type check as well as the tests.',
  },
} as const;

export type FaultId = keyof typeof FAULTS;
