import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface RunningServer {
  url: string;
  dataDir: string;
  /** The process the server was started as (the launcher's, when one is given). */
  pid: number;
  stop(): Promise<void>;
  /** Kills it with no chance to clean up, as a crash or `kill -9` would. */
  crash(): Promise<void>;
}

export interface ServerOptions {
  /** Start on this data directory (kept afterwards) instead of a fresh one (removed by stop). */
  dataDir?: string;
  /** A command the server runs under, e.g. `unshare --pid --fork ...` for a fresh PID namespace. */
  launcher?: string[];
}

const projectRoot = path.resolve(__dirname, '..', '..', '..');
const START_TIMEOUT_MS = 120_000;

/** Names the directory prepareDataTemplate made, for every process of the run. */
const TEMPLATE_ENV = 'E2E_DATA_TEMPLATE';

/**
 * A database directory the real server has initialised and migrated once, for the servers of
 * this run (browser or reliability tests) to start from (E2E_DATA_TEMPLATE): creating a PGlite
 * database costs about 6 s of CPU, more than a browser journey on a busy two-core machine. Its
 * keys are removed, so each server still makes its own. Whoever calls this removes the
 * directory (removeDataTemplate).
 */
export async function prepareDataTemplate(): Promise<void> {
  const template = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-e2e-template-'));
  const server = await startServer({}, { dataDir: template });
  await server.stop();
  for (const made of ['secret-key', 'signing-key.jwk', 'pglite.lock']) {
    fs.rmSync(path.join(template, made), { force: true });
  }
  process.env[TEMPLATE_ENV] = template;
}

export function removeDataTemplate(): void {
  const template = process.env[TEMPLATE_ENV];
  if (template) fs.rmSync(template, { recursive: true, force: true });
}

/** A new data directory: a copy of the run's template when there is one, else empty. */
export function freshDataDir(): string {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-e2e-'));
  const template = process.env[TEMPLATE_ENV];
  if (template && fs.existsSync(template)) fs.cpSync(template, dataDir, { recursive: true });
  return dataDir;
}

/**
 * Starts the real server the way `npm start` does (after the build), on a free port and a
 * fresh data directory, and resolves once it prints its URL.
 */
export async function startServer(
  env: NodeJS.ProcessEnv = {},
  options: ServerOptions = {},
): Promise<RunningServer> {
  const dataDir = options.dataDir ?? freshDataDir();
  // A fresh PGlite directory unless the caller names a database: a DATABASE_URL in the test
  // run's own environment would otherwise point every spec's server at one shared database.
  const inherited = { ...process.env };
  delete inherited.DATABASE_URL;
  const [command, ...args] = [
    ...(options.launcher ?? []),
    process.execPath,
    '--import',
    'tsx',
    path.join(projectRoot, 'server', 'index.ts'),
  ];
  const child: ChildProcess = spawn(command!, args, {
    cwd: projectRoot,
    env: { ...inherited, PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    // Generous: tsx compiling the server and PGlite starting up took over 30 s on a busy
    // two-core machine with a webpack build and another suite beside it.
    const timer = setTimeout(
      () => reject(new Error(`server did not start in ${START_TIMEOUT_MS / 1000} s:\n${output}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  // A server that dies mid-suite would otherwise show up only as refused connections.
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`The test server exited (${code ?? signal}):\n${output}`);
  });
  const end = async (signal: NodeJS.Signals) => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(signal);
      await exited;
    }
  };
  return {
    url,
    dataDir,
    pid: child.pid!,
    async stop() {
      await end('SIGTERM');
      if (options.dataDir === undefined) fs.rmSync(dataDir, { recursive: true, force: true });
    },
    crash: () => end('SIGKILL'),
  };
}
