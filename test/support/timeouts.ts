/**
 * How long a hook or a test may take to start or stop what it runs against: a server, a database,
 * a local chain or a browser. Jest's default (5 s for a test and for a hook alike) is far too
 * short on a loaded two-core machine, where a webpack build or another suite runs beside the
 * tests: there a fake server that listens in milliseconds when the machine is quiet can wait
 * seconds for the CPU, and a PGlite start that takes 4-5 s can take a minute. A limit here is a
 * bound on waiting, not an expected time: a test that passes finishes as fast as it can.
 *
 * The browser and reliability projects set a default of 150 s for every test and hook
 * (test/e2e/support/timeout.ts); their start-up hooks that wait for the real server (up to its
 * own 120 s, test/e2e/support/server.ts) beside other work name a longer limit.
 */

/**
 * Starting or stopping a server in the test's own process (the fake model server, a plain
 * `http.createServer`, a fastify app on a database that is already open), and a test that does
 * so in its body.
 */
export const SERVER_TIMEOUT_MS = 60_000;

/** Stopping whatever a suite started: servers, databases, a chain, a browser (afterAll/afterEach). */
export const STOP_TIMEOUT_MS = 60_000;

/**
 * Starting an embedded database (and a server on it): PGlite starts in 4-5 s on a quiet machine,
 * far longer on a busy one.
 */
export const DATABASE_START_TIMEOUT_MS = 60_000;

/** Starting a local chain (Hardhat compiling and deploying the smart-account contracts). */
export const CHAIN_START_TIMEOUT_MS = 120_000;

/**
 * A browser suite's start: the real server as `npm start` runs it (which may take its whole
 * 120 s to print its address on a busy machine), with a browser, a fake model server or a
 * database beside it.
 */
export const APP_START_TIMEOUT_MS = 180_000;
