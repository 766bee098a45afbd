/**
 * supabase/functions under Deno 2.1 (the Edge Runtime's version, from npm), reachable as on a
 * Supabase project at <url>/functions/v1/<name>. Each function runs in its own Deno process with
 * its own deno.json; a small Node proxy in front routes by name. The functions get what Supabase
 * gives them (SUPABASE_URL, SUPABASE_SECRET_KEYS) and their secrets (WALLET_LOGIN_SIGNING_JWK,
 * SITE_URL, CHAIN_RPC_URLS), from the environment or else the local server's data folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { loadServerKeys } from '../../server/auth';
import { setForwardedFor } from '../../server/gateway';
import { sendWebResponse, toWebRequest } from '../../server/webRequests';
import { DEFAULT_PUBLISHABLE_KEY } from '../../src/api/backend';

const projectRoot = path.resolve(__dirname, '..', '..');
export const FUNCTIONS_DIR = path.join(projectRoot, 'supabase', 'functions');

/**
 * The Deno executable itself, from the `deno` package's platform build. Not its node_modules/.bin
 * launcher: that is a Node process which would outlive a stop and leave Deno running.
 */
export function denoExecutable(): string {
  // Straight from the platform package: the deno package's installer would copy it into place
  // first, and two test workers copying at once can leave a half-written executable.
  const target =
    process.platform === 'linux'
      ? `linux-${process.arch}-glibc`
      : `${process.platform}-${process.arch}`;
  const folder = path.dirname(createRequire(__filename).resolve(`@deno/${target}/package.json`));
  return path.join(folder, process.platform === 'win32' ? 'deno.exe' : 'deno');
}

const HOST_SCRIPT = path.join(FUNCTIONS_DIR, '_host', 'edgeHost.ts');
/** The first run downloads each function's npm packages into Deno's cache. */
const START_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 5_000;

/**
 * Deno's own environment: where it downloads npm packages through a TLS-inspecting proxy, the
 * system's certificate store must be trusted too (Node reads NODE_EXTRA_CA_CERTS; Deno does not).
 */
export const DENO_ENV = { DENO_TLS_CA_STORE: 'system,mozilla', NO_COLOR: '1' };

/** The functions: folders with an index.ts, except _shared and the other underscored ones. */
export function functionNames(): string[] {
  return fs
    .readdirSync(FUNCTIONS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
    .filter((entry) => fs.existsSync(path.join(FUNCTIONS_DIR, entry.name, 'index.ts')))
    .map((entry) => entry.name)
    .sort();
}

export interface FunctionsServerOptions {
  /** The project the functions call back (its REST API): the local server, by default. */
  supabaseUrl: string;
  /** 0 for any free port. */
  port: number;
  dataDir: string;
  /** The site's origins, comma-separated; by default the project's URL on localhost and 127.0.0.1. */
  siteUrl?: string;
  env?: NodeJS.ProcessEnv;
  /** Where each function's output goes, line by line. */
  log?: (name: string, line: string) => void;
}

export interface FunctionsServer {
  url: string;
  close(): Promise<void>;
}

export async function startFunctionsServer(
  options: FunctionsServerOptions,
): Promise<FunctionsServer> {
  const env = options.env ?? process.env;
  const keys = loadServerKeys(options.dataDir, DEFAULT_PUBLISHABLE_KEY, env);
  const functionEnv: NodeJS.ProcessEnv = {
    ...passedOn(env),
    ...DENO_ENV,
    SUPABASE_URL: options.supabaseUrl,
    SUPABASE_SECRET_KEYS: JSON.stringify({ default: keys.secretKey }),
    WALLET_LOGIN_SIGNING_JWK: JSON.stringify(keys.signingJwk),
    SITE_URL: options.siteUrl ?? env.SITE_URL ?? siteUrlsFor(options.supabaseUrl),
    ...(env.CHAIN_RPC_URLS ? { CHAIN_RPC_URLS: env.CHAIN_RPC_URLS } : {}),
  };

  const children = new Map<string, { process: ChildProcess; port: number }>();
  const stopAll = () => Promise.all([...children.values()].map(({ process }) => stop(process)));
  try {
    for (const name of functionNames()) {
      children.set(name, await startFunction(name, functionEnv, options.log));
    }
  } catch (error) {
    await stopAll();
    throw error;
  }

  const proxy = http.createServer((incoming, outgoing) => {
    const name = /^\/functions\/v1\/([^/?]+)/.exec(incoming.url ?? '')?.[1] ?? '';
    const child = children.get(name);
    const answer = child
      ? fetch(asForwarded(incoming, `http://127.0.0.1:${child.port}`), { redirect: 'manual' })
      : Promise.resolve(
          Response.json(
            { code: 'NOT_FOUND', message: `No function named '${name}'` },
            { status: 404 },
          ),
        );
    answer
      .then((response) => sendWebResponse(response, outgoing))
      .catch((error: unknown) => {
        if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'application/json' });
        outgoing.end(JSON.stringify({ code: 'function_failed', message: String(error) }));
      });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      proxy.once('error', reject);
      proxy.listen(options.port, '127.0.0.1', resolve);
    });
  } catch (error) {
    await stopAll();
    throw new Error(`Cannot listen on port ${options.port}: ${String(error)}`, { cause: error });
  }
  const address = proxy.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://localhost:${port}`,
    async close() {
      await new Promise((resolve) => proxy.close(resolve));
      await stopAll();
    },
  };
}

/**
 * The request as Supabase's gateway passes it to a function: the caller named by the one address
 * this proxy saw (server/gateway.ts), never by a header a client wrote. Behind the local server
 * (FUNCTIONS_URL) that address is the server's own, so there every player's logins count as one
 * address's: this is a way to run the function under Deno, not a way to serve many players.
 */
function asForwarded(incoming: http.IncomingMessage, origin: string): Request {
  const request = toWebRequest(incoming, origin);
  setForwardedFor(request.headers, incoming.socket.remoteAddress ?? 'unknown');
  return request;
}

/**
 * What Deno itself needs from the environment (where it lives, caches and downloads through);
 * nothing else of this process reaches a function, as on Supabase (no DATABASE_URL, no keys).
 */
const DENO_VARIABLES =
  /^(PATH|HOME|TMPDIR|DENO_DIR|DENO_CERT|SSL_CERT_(FILE|DIR)|NPM_CONFIG_REGISTRY|(HTTPS?|NO)_PROXY)$/i;

function passedOn(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => DENO_VARIABLES.test(name)));
}

/** The project's URL on localhost and on 127.0.0.1: the origins a local site is opened at. */
function siteUrlsFor(supabaseUrl: string): string {
  const url = new URL(supabaseUrl);
  const twin = new URL(url.origin);
  if (url.hostname === 'localhost') twin.hostname = '127.0.0.1';
  else if (url.hostname === '127.0.0.1') twin.hostname = 'localhost';
  return [...new Set([url.origin, twin.origin])].join(',');
}

function startFunction(
  name: string,
  env: NodeJS.ProcessEnv,
  log: FunctionsServerOptions['log'] = (fn, line) => console.log(`[${fn}] ${line}`),
): Promise<{ process: ChildProcess; port: number }> {
  const config = path.join(FUNCTIONS_DIR, name, 'deno.json');
  const args = ['run', '--allow-net', '--allow-env', '--allow-read'];
  if (fs.existsSync(config)) args.push('--config', config);
  const deno = denoExecutable();
  const child = spawn(deno, [...args, HOST_SCRIPT, name, '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  readline.createInterface({ input: child.stderr! }).on('line', (line) => log(name, line));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${name} did not start under Deno within ${START_TIMEOUT_MS / 1000} s`));
    }, START_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`Could not run Deno (${deno}): ${error.message}; run npm ci`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited under Deno (code ${code}) before it listened`));
    });
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const port = /^\{"listening":(\d+)\}$/.exec(line)?.[1];
      if (port) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.once('exit', (code, signal) => log(name, `exited under Deno (${code ?? signal})`));
        resolve({ process: child, port: Number(port) });
      } else {
        log(name, line);
      }
    });
  });
}

/** SIGTERM, then SIGKILL if Deno has not exited within STOP_GRACE_MS. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
