/**
 * `npm run deploy:rehearse`: what a deployer does on Supabase (README, "Deploying to Supabase"),
 * done offline against this machine's PostgreSQL (DESIGN.md, "The pieces"), with the same
 * commands:
 *
 * 1. A fresh database owned by a role that is not a superuser but bypasses row-level security
 *    and is a member of anon, authenticated and service_role, as a Supabase project's `postgres`
 *    is; the platform's part (those roles, auth.jwt()) made as the administrator, as Supabase's.
 * 2. `npx supabase db push --remote=<database URL> --yes`: the pinned CLI applies the migrations.
 * 3. `npx supabase gen signing-key --algorithm ES256`: the key that signs sign-in tokens.
 * 4. The local server on that database (in Supabase's place: the REST API and its gateway) must
 *    find every migration applied, and the wallet-login function runs under Deno with the key.
 * 5. A wallet signs in through the function, saves a result with its token, and sees it on the
 *    leaderboard; then a flood of nonce requests and logins from one address is refused past the
 *    limit, with the tables bounded.
 * 6. The other way round: a database the server migrated is one the CLI finds up to date.
 *
 * Needs a PostgreSQL administrator URL: REHEARSAL_POSTGRES_URL, TEST_POSTGRES_URL, or the
 * machine's at 127.0.0.1:5432. Everything it makes is removed at the end.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type BaseWallet, Wallet } from 'ethers';
import { decodeProtectedHeader } from 'jose';
import { Client } from 'pg';
import { SiweMessage } from 'siwe';
import { TokenAuthority } from '../../server/auth';
import { buildServer } from '../../server/app';
import { readConfig } from '../../server/config';
import { migrate, openDatabase, type Database } from '../../server/db';
import { DEFAULT_PUBLISHABLE_KEY, type Backend } from '../../src/api';
import { createBackend } from '../../src/api/supabaseBackend';
import { parseSigningJwk } from '../../supabase/functions/_shared/walletToken';
import { startFunctionsServer } from '../functions/server';

const run = promisify(execFile);
const projectRoot = path.resolve(__dirname, '..', '..');
const SHIM_FILE = path.join(projectRoot, 'server', 'supabaseShim.sql');
export const DEFAULT_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
/** Nonce requests and logins allowed per address per minute: the default on both paths. */
const SIGN_IN_RATE_LIMIT = 30;

export interface RehearsalReport {
  /** What the CLI said it applied, migration by migration. */
  pushed: string[];
  /** What the server applied on the database the CLI migrated: nothing, when they agree. */
  appliedByServer: string[];
  signingKeyId: string;
  /** The token's key id, which Supabase matches against the imported key. */
  tokenKeyId: string;
  savedScore: number;
  leaderboardScore: number | null;
  /** Status of each request of the flood, in order: nonce requests, then logins. */
  floodNonces: number[];
  floodLogins: number[];
  /** Rows left behind by the flood. */
  attemptRows: number;
  /** What the CLI says of a database the server migrated. */
  cliOnServerMigrated: string;
}

type Say = (line: string) => void;

/** `npx supabase <args>` in the project, as the README runs it; what it printed. */
async function supabase(args: string[], say: Say): Promise<{ stdout: string; stderr: string }> {
  say(`$ npx supabase ${args.join(' ').replace(/postgresql:\/\/\S+/g, '<database URL>')}`);
  const { stdout, stderr } = await run('npx', ['--no-install', 'supabase', ...args], {
    cwd: projectRoot,
    env: { ...process.env, SUPABASE_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return { stdout, stderr };
}

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

interface Project {
  /** The owner's connection: what `supabase db push --remote` is given. */
  url: string;
  drop(): Promise<void>;
}

/** Step 1: a database and its owner, set up as a Supabase project's are. */
async function newProject(adminUrl: string, name: string): Promise<Project> {
  const owner = `${name}_owner`;
  await withClient(adminUrl, async (admin) => {
    await admin.query(
      `create role ${owner} login nosuperuser createrole bypassrls password '${name}'`,
    );
    await admin.query(`create database ${name} owner ${owner}`);
  });
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${name}`;
  await withClient(databaseUrl.toString(), async (admin) => {
    await admin.query(fs.readFileSync(SHIM_FILE, 'utf8'));
    await admin.query(`grant anon, authenticated, service_role to ${owner}`);
  });
  const url = new URL(databaseUrl);
  url.username = owner;
  url.password = name;
  return {
    url: url.toString(),
    drop: () =>
      withClient(adminUrl, async (admin) => {
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.query(`drop role if exists ${owner}`);
      }),
  };
}

/** The sign-in the browser does (src/features/wallet), against the rehearsal's backend. */
async function signIn(backend: Backend, siteUrl: string, functionsUrl: string, wallet: BaseWallet) {
  const { data, error } = await backend.anon.rpc('create_user_if_not_exists', {
    p_wallet_address: wallet.address.toLowerCase(),
  });
  if (error) throw new Error(`The nonce request failed: ${error.message}`);
  const nonce = (data as { nonce: string }[])[0]?.nonce ?? '';
  const now = new Date();
  const message = new SiweMessage({
    domain: new URL(siteUrl).host,
    address: wallet.address,
    statement: 'Sign in to Taleweaver.',
    uri: siteUrl,
    version: '1',
    chainId: 1,
    nonce,
    issuedAt: now.toISOString(),
    expirationTime: new Date(now.getTime() + 10 * 60 * 1000).toISOString(),
  }).prepareMessage();
  const response = await login(functionsUrl, {
    message,
    signature: await wallet.signMessage(message),
  });
  const body = (await response.json()) as { access_token?: string; message?: string };
  if (!response.ok || !body.access_token) {
    throw new Error(`The login failed (${response.status}): ${body.message ?? 'no token'}`);
  }
  return body.access_token;
}

const login = (functionsUrl: string, body: unknown) =>
  fetch(`${functionsUrl}/functions/v1/wallet-login`, {
    method: 'POST',
    headers: { apikey: DEFAULT_PUBLISHABLE_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A finished 9-turn Heroic Victory whose score is what its stats earn (SPEC.md section 9). */
function heroicResult(address: string) {
  const detailedStats = {
    scoreBreakdown: { decisions: 70, consistency: 60, creativity: 55, morality: 40 },
    playerStats: {
      moralScore: 20,
      riskScore: 45,
      traitConsistency: 60,
      creativity: 16,
      successRate: 67,
    },
    turnCount: 9,
    moralChoices: ['moral'],
    successfulChoices: ['success'],
    rewrites: 0,
  };
  // round(185 + 20 * 21 / 30 + 67 * 15 / 100) * 1.5 = round(185 + 14 + 10.05) * 1.5
  const score = Math.round(Math.round(185 + (20 * 21) / 30 + (67 * 15) / 100) * 1.5);
  return {
    wallet_address: address,
    score,
    ending_type: 'Heroic Victory',
    character_name: 'Rehearsed Hero',
    genre: 'High Fantasy',
    turn_count: 9,
    detailed_stats: { ...detailedStats, enhancedScore: score },
  };
}

export async function rehearseDeploy(
  options: { adminUrl?: string; say?: Say } = {},
): Promise<RehearsalReport> {
  const adminUrl =
    options.adminUrl ??
    process.env.REHEARSAL_POSTGRES_URL ??
    process.env.TEST_POSTGRES_URL ??
    DEFAULT_ADMIN_URL;
  const say = options.say ?? ((line: string) => console.log(line));
  const name = `taleweaver_rehearsal_${randomBytes(4).toString('hex')}`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'taleweaver-rehearsal-'));
  const cleanups: (() => Promise<unknown>)[] = [async () => fs.rmSync(work, { recursive: true })];
  const cleanUp = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => undefined);
  };
  try {
    say(`1. A project: database ${name}, owned by a role that bypasses RLS but is no superuser`);
    const project = await newProject(adminUrl, name);
    cleanups.push(() => project.drop());

    say('2. The migrations, pushed by the pinned Supabase CLI');
    const push = await supabase(['db', 'push', `--remote=${project.url}`, '--yes'], say);
    const pushed = [
      ...`${push.stdout}${push.stderr}`.matchAll(/Applying migration (\S+)\.\.\./g),
    ].map((m) => m[1]!);

    say('3. The signing key');
    // The key alone is on stdout (the CLI's advice goes to stderr), as `> file` keeps it.
    const keyText = (await supabase(['gen', 'signing-key', '--algorithm', 'ES256'], say)).stdout;
    const keyFile = path.join(work, 'signing-key.json');
    fs.writeFileSync(keyFile, keyText, { mode: 0o600 });
    const signingJwk = parseSigningJwk(keyText.trim(), keyFile);

    say('4. The backend on that database, and wallet-login under Deno with the key');
    const db: Database = await openDatabase({ databaseUrl: project.url, dataDir: null });
    cleanups.push(() => db.close());
    const appliedByServer = await migrate(db);
    const secretKey = `sb_secret_${randomBytes(24).toString('base64url')}`;
    const tokens = await TokenAuthority.create({
      publishableKey: DEFAULT_PUBLISHABLE_KEY,
      secretKey,
      signingJwk,
    });
    const config = readConfig({
      PORT: '0',
      SERVE_APP: 'false',
      LOG_LEVEL: 'silent',
      SIGN_IN_RATE_LIMIT: String(SIGN_IN_RATE_LIMIT),
    });
    const app = await buildServer(config, { db, tokens });
    await app.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => app.close());
    const address = app.server.address();
    const siteUrl = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
    const deno = await startFunctionsServer({
      supabaseUrl: siteUrl,
      port: 0,
      dataDir: work,
      siteUrl,
      env: {
        ...process.env,
        WALLET_LOGIN_SIGNING_JWK: keyText.trim(),
        SUPABASE_SECRET_KEYS: JSON.stringify({ default: secretKey }),
      },
      log: (fn, line) => say(`   [${fn}] ${line}`),
    });
    cleanups.push(() => deno.close());
    const backend = createBackend({ url: siteUrl, publishableKey: DEFAULT_PUBLISHABLE_KEY });

    say('5. A wallet signs in through the function and saves a result with its token');
    const wallet = Wallet.createRandom();
    const walletAddress = wallet.address.toLowerCase();
    const token = await signIn(backend, siteUrl, deno.url, wallet);
    const result = heroicResult(walletAddress);
    const saved = await backend
      .forWallet({ address: walletAddress, token })
      .from('game_results')
      .insert(result);
    if (saved.error) throw new Error(`Saving the result failed: ${saved.error.message}`);
    const board = await backend.anon
      .from('leaderboard')
      .select('score')
      .eq('wallet_address', walletAddress);
    const leaderboardScore = (board.data as { score: number }[] | null)?.[0]?.score ?? null;

    say(`   A flood from one address: ${SIGN_IN_RATE_LIMIT + 2} nonce requests, then 2 logins`);
    const minute = async () =>
      String((await db.pool.query("select date_trunc('minute', now()) as m")).rows[0].m);
    let floodNonces: number[] = [];
    let floodLogins: number[] = [];
    // Counts are per minute: a flood that straddles two is played again, in one.
    for (let tries = 0; tries < 2; tries += 1) {
      const startedIn = await minute();
      floodNonces = [];
      for (let i = 0; i < SIGN_IN_RATE_LIMIT + 2; i += 1) {
        const { status } = await backend.anon.rpc('create_user_if_not_exists', {
          p_wallet_address: Wallet.createRandom().address.toLowerCase(),
        });
        floodNonces.push(status);
      }
      floodLogins = [];
      for (let i = 0; i < 2; i += 1) floodLogins.push((await login(deno.url, {})).status);
      if ((await minute()) === startedIn) break;
    }
    const attemptRows = Number(
      (await db.pool.query('select count(*) from public.sign_in_attempts')).rows[0].count,
    );

    say('6. A database the server migrated, as the CLI sees it');
    const second = await newProject(adminUrl, `${name}_b`);
    cleanups.push(() => second.drop());
    const serverMigrated = await openDatabase({ databaseUrl: second.url, dataDir: null });
    try {
      await migrate(serverMigrated);
    } finally {
      await serverMigrated.close();
    }
    const dryRun = await supabase(['db', 'push', `--remote=${second.url}`, '--dry-run'], say);
    const cliOnServerMigrated = `${dryRun.stdout}${dryRun.stderr}`;

    return {
      pushed,
      appliedByServer,
      signingKeyId: signingJwk.kid,
      tokenKeyId: String(decodeProtectedHeader(token).kid),
      savedScore: result.score,
      leaderboardScore,
      floodNonces,
      floodLogins,
      attemptRows,
      cliOnServerMigrated: cliOnServerMigrated.trim(),
    };
  } finally {
    await cleanUp();
  }
}

/** What a rehearsal that went as a deploy should reports; empty when it did. */
export function rehearsalProblems(report: RehearsalReport): string[] {
  const limit = SIGN_IN_RATE_LIMIT;
  const checks: [boolean, string][] = [
    [report.pushed.length > 0, 'the CLI applied no migration'],
    [
      report.appliedByServer.length === 0,
      `the server applied ${report.appliedByServer.join(', ')} again`,
    ],
    [report.tokenKeyId === report.signingKeyId, 'the token does not name the imported key'],
    [report.leaderboardScore === report.savedScore, 'the saved result is not on the leaderboard'],
    [
      /^(200,)*(429,?)+$/.test(report.floodNonces.join(',')),
      `the flood's nonce requests were answered ${report.floodNonces.join(', ')}`,
    ],
    [
      report.floodNonces.filter((status) => status === 200).length <= limit,
      'more nonce requests than the limit were let in',
    ],
    [report.floodLogins.every((status) => status === 429), 'logins past the limit were let in'],
    [report.attemptRows <= 2, `the flood left ${report.attemptRows} rows of counts`],
    [
      /up to date/i.test(report.cliOnServerMigrated),
      'the CLI would push to a server-migrated database',
    ],
  ];
  return checks.filter(([ok]) => !ok).map(([, problem]) => problem);
}

if (require.main === module) {
  rehearseDeploy()
    .then((report) => {
      console.log(JSON.stringify(report, null, 2));
      const problems = rehearsalProblems(report);
      if (problems.length > 0) {
        console.error(`The rehearsal found: ${problems.join('; ')}`);
        process.exit(1);
      }
      console.log('The deploy rehearsal passed.');
    })
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    });
}
