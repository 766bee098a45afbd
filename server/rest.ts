import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PoolClient } from 'pg';
import type { TokenAuthority } from './auth';
import { type Database, type RequestClaims, type RequestSettings, withClaims } from './db';
import { forwardedHeaders } from './gateway';
import { RestError, fromDatabaseError, outsideSubset } from './restError';
import { SharedReads } from './sharedReads';
import {
  FUNCTIONS,
  MAX_INSERT_ROWS,
  MAX_LIMIT,
  OPERATORS,
  TABLES,
  type TableRules,
} from './restSchema';

/** The media type of `.single()`: one JSON object rather than an array. */
const SINGLE_OBJECT = 'application/vnd.pgrst.object+json';
const TABLE_ROUTE = '/rest/v1/:table';
/** A function call: it may write (publishing a story changes the leaderboard's links). */
const RPC_ROUTE = '/rest/v1/rpc/:fn';
const STORY_SAVE_ROUTE = '/rest/v1/rpc/save_story';
const PICTURE_SAVE_ROUTE = '/rest/v1/rpc/save_story_picture';
/** A picture may weigh 256 KB (the pictures migration), sent as base64 in JSON with room to spare. */
export const PICTURE_SAVE_BODY_LIMIT_BYTES = 512 * 1024;
/** A saved story may hold 1 MB (the stories migration), sent as JSON with some room to spare. */
export const STORY_SAVE_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
/** Query parameters that are not column filters. */
const RESERVED_PARAMS = new Set(['select', 'order', 'limit', 'offset', 'columns']);

type Query = Record<string, string | string[] | undefined>;
type Row = Record<string, unknown>;

const quote = (identifier: string) => `"${identifier}"`;

function tableRules(name: string): TableRules {
  const rules = Object.hasOwn(TABLES, name) ? TABLES[name] : undefined;
  if (!rules) throw outsideSubset(`Table '${name}'`);
  return rules;
}

function single(value: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(value)) throw outsideSubset(`Repeating '${name}'`);
  return value;
}

/** `select=a,b` or `*`, limited to the table's readable columns. */
function selectedColumns(query: Query, rules: TableRules): string[] {
  const select = single(query.select, 'select') ?? '*';
  if (select.trim() === '*') return [...rules.readable];
  return select.split(',').map((part) => {
    const column = part.trim();
    if (!rules.readable.includes(column)) throw outsideSubset(`Selecting '${column}'`);
    return column;
  });
}

/** Column filters such as `wallet_address=eq.0xabc`, as bound-parameter SQL. */
function whereClause(query: Query, rules: TableRules, params: unknown[]): string {
  const conditions: string[] = [];
  for (const [column, raw] of Object.entries(query)) {
    if (RESERVED_PARAMS.has(column) || raw === undefined) continue;
    if (!rules.readable.includes(column)) throw outsideSubset(`Filtering on '${column}'`);
    for (const filter of Array.isArray(raw) ? raw : [raw]) {
      const dot = filter.indexOf('.');
      const operator = OPERATORS[filter.slice(0, dot)];
      if (dot < 0 || !operator) throw outsideSubset(`The filter '${column}=${filter}'`);
      params.push(filter.slice(dot + 1));
      conditions.push(`${quote(column)} ${operator} $${params.length}`);
    }
  }
  return conditions.length > 0 ? ` where ${conditions.join(' and ')}` : '';
}

/** `order=score.desc,created_at.asc.nullslast` */
function orderClause(query: Query, rules: TableRules): string {
  const order = single(query.order, 'order');
  if (!order) return '';
  const terms = order.split(',').map((term) => {
    const [column = '', ...modifiers] = term.trim().split('.');
    if (!rules.readable.includes(column)) throw outsideSubset(`Ordering by '${column}'`);
    const sql = [quote(column)];
    for (const modifier of modifiers) {
      if (modifier === 'asc' || modifier === 'desc') sql.push(modifier);
      else if (modifier === 'nullsfirst') sql.push('nulls first');
      else if (modifier === 'nullslast') sql.push('nulls last');
      else throw outsideSubset(`The order modifier '${modifier}'`);
    }
    return sql.join(' ');
  });
  return ` order by ${terms.join(', ')}`;
}

function countParam(query: Query, name: 'limit' | 'offset'): string {
  const value = single(query[name], name);
  if (value === undefined) return '';
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0 || count > MAX_LIMIT) {
    throw outsideSubset(`${name}=${value}`);
  }
  return ` ${name} ${count}`;
}

function preferences(request: FastifyRequest): Set<string> {
  const header = request.headers.prefer;
  const values = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',');
  return new Set(values.map((value) => value.trim()).filter(Boolean));
}

function checkSchemaProfile(request: FastifyRequest): void {
  for (const header of ['accept-profile', 'content-profile'] as const) {
    const profile = request.headers[header];
    if (profile !== undefined && profile !== 'public') throw outsideSubset(`Schema '${profile}'`);
  }
}

/** Sends rows as PostgREST does: an array, or one object for `.single()` (406 otherwise). */
function sendRows(request: FastifyRequest, reply: FastifyReply, rows: Row[], status = 200) {
  if ((request.headers.accept ?? '').includes(SINGLE_OBJECT)) {
    if (rows.length !== 1) {
      throw new RestError(
        406,
        'PGRST116',
        'JSON object requested, multiple (or no) rows returned',
        `The result contains ${rows.length} rows`,
      );
    }
    return reply.code(status).send(rows[0]);
  }
  return reply.code(status).send(rows);
}

function bodyRows(body: unknown): Row[] {
  const rows = Array.isArray(body) ? body : [body];
  if (rows.length === 0 || rows.length > MAX_INSERT_ROWS) {
    throw outsideSubset(`Inserting ${rows.length} rows`);
  }
  for (const row of rows) {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw new RestError(400, 'PGRST102', 'The request body must be a JSON object or array');
    }
  }
  return rows as Row[];
}

/** A value as node-postgres should bind it; JSON documents are sent as JSON text. */
function bindValue(column: string, value: unknown, rules: TableRules): unknown {
  return rules.json?.includes(column) && value !== null ? JSON.stringify(value) : value;
}

/**
 * The select a GET on `table` with these query parameters runs, as bound-parameter SQL (also
 * what `npm run bench` explains for the leaderboard). Throws outside the allowed subset.
 */
export function selectStatement(table: string, query: Query): { sql: string; params: unknown[] } {
  const rules = tableRules(table);
  const params: unknown[] = [];
  const sql =
    `select ${selectedColumns(query, rules).map(quote).join(', ')}` +
    ` from public.${quote(table)}` +
    whereClause(query, rules, params) +
    orderClause(query, rules) +
    countParam(query, 'limit') +
    countParam(query, 'offset');
  return { sql, params };
}

/**
 * The part of PostgREST the app uses (SPEC.md section 7), under /rest/v1. Every request runs
 * in one transaction with its token's role and claims, so the migrations' RLS decides.
 */
export function registerRest(
  app: FastifyInstance,
  db: Database,
  tokens: TokenAuthority,
  {
    sharedReads = new SharedReads<Row[]>(),
    settings = {},
  }: {
    sharedReads?: SharedReads<Row[]>;
    /** Set in every request's transaction besides its headers (server/db.ts). */
    settings?: RequestSettings;
  } = {},
): void {
  /** The request's claims, once its schema and token are known good. */
  const admit = (request: FastifyRequest): Promise<RequestClaims> => {
    checkSchemaProfile(request);
    return tokens.claimsFor(request.headers.apikey, request.headers.authorization);
  };
  const run = async <T>(request: FastifyRequest, work: (client: PoolClient) => Promise<T>) => {
    const claims = await admit(request);
    try {
      return await withClaims(db, claims, work, {
        ...settings,
        'request.headers': JSON.stringify(forwardedHeaders(request.headers, request.ip)),
      });
    } catch (error) {
      throw fromDatabaseError(error, claims.role === 'anon');
    }
  };

  // A completed write (to a table, or by a function) starts a new generation of shared reads, before its answer
  // is sent, so the writer's next read sees what it wrote.
  app.addHook('onSend', async (request, reply) => {
    const route = request.routeOptions.url;
    const writes =
      (route === TABLE_ROUTE && ['POST', 'PATCH', 'DELETE'].includes(request.method)) ||
      route === RPC_ROUTE ||
      route === STORY_SAVE_ROUTE ||
      route === PICTURE_SAVE_ROUTE;
    if (writes && reply.statusCode < 400) {
      sharedReads.invalidate();
    }
  });

  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/rest/') || request.method === 'OPTIONS') return;
    // Like Supabase's gateway: every request names one of the project's keys.
    if (!tokens.knowsApiKey(request.headers.apikey)) {
      throw new RestError(
        401,
        'PGRST301',
        'Invalid API key',
        null,
        'Send the publishable key as apikey',
      );
    }
  });

  app.get<{ Params: { table: string }; Querystring: Query }>(
    TABLE_ROUTE,
    async (request, reply) => {
      const rules = tableRules(request.params.table);
      const { sql, params } = selectStatement(request.params.table, request.query);
      const query = () => run(request, async (client) => (await client.query(sql, params)).rows);
      let rows: Row[];
      if (rules.sameForEveryone) {
        // Each request's own token is checked before it may share another's answer.
        await admit(request);
        rows = await sharedReads.read(`${sql}\n${JSON.stringify(params)}`, query);
      } else {
        rows = await query();
      }
      reply.header('Content-Range', rows.length > 0 ? `0-${rows.length - 1}/*` : '*/*');
      return sendRows(request, reply, rows);
    },
  );

  app.post<{ Params: { table: string }; Querystring: Query }>(
    TABLE_ROUTE,
    async (request, reply) => {
      const { table } = request.params;
      const rules = tableRules(table);
      const rows = bodyRows(request.body);
      const representation = preferences(request).has('return=representation');
      const returning = representation
        ? ` returning ${selectedColumns(request.query, rules).map(quote).join(', ')}`
        : '';
      const inserted = await run(request, async (client) => {
        const result: Row[] = [];
        for (const row of rows) {
          const columns = Object.keys(row);
          for (const column of columns) {
            if (!rules.insertable.includes(column)) throw outsideSubset(`Inserting '${column}'`);
          }
          const values = columns.map((column) => bindValue(column, row[column], rules));
          const sql =
            `insert into public.${quote(table)} (${columns.map(quote).join(', ')})` +
            ` values (${columns.map((_, i) => `$${i + 1}`).join(', ')})${returning}`;
          result.push(...(await client.query(sql, values)).rows);
        }
        return result;
      });
      if (!representation) return reply.code(201).send();
      return sendRows(request, reply, inserted, 201);
    },
  );

  app.patch<{ Params: { table: string }; Querystring: Query }>(
    TABLE_ROUTE,
    async (request, reply) => {
      const { table } = request.params;
      const rules = tableRules(table);
      const [changes] = bodyRows(request.body);
      const columns = Object.keys(changes ?? {});
      if (columns.length === 0) throw outsideSubset('An update without columns');
      for (const column of columns) {
        if (!rules.updatable.includes(column)) throw outsideSubset(`Updating '${column}'`);
      }
      const params = columns.map((column) => bindValue(column, changes?.[column], rules));
      const where = whereClause(request.query, rules, params);
      if (where === '') throw outsideSubset('An update without a filter');
      const representation = preferences(request).has('return=representation');
      const sql =
        `update public.${quote(table)} set ` +
        columns.map((column, i) => `${quote(column)} = $${i + 1}`).join(', ') +
        where +
        (representation
          ? ` returning ${selectedColumns(request.query, rules).map(quote).join(', ')}`
          : '');
      const rows = await run(request, async (client) => (await client.query(sql, params)).rows);
      if (!representation) return reply.code(204).send();
      return sendRows(request, reply, rows);
    },
  );

  app.delete<{ Params: { table: string }; Querystring: Query }>(
    TABLE_ROUTE,
    {
      // supabase-js names a JSON body it does not send; PostgREST reads none.
      onRequest: async (request) => {
        const length = request.headers['content-length'];
        if (length === undefined || length === '0') delete request.headers['content-type'];
      },
    },
    async (request, reply) => {
      const { table } = request.params;
      const rules = tableRules(table);
      if (!rules.deletable) throw outsideSubset(`Deleting from '${table}'`);
      const params: unknown[] = [];
      const where = whereClause(request.query, rules, params);
      if (where === '') throw outsideSubset('A delete without a filter');
      const representation = preferences(request).has('return=representation');
      const sql =
        `delete from public.${quote(table)}${where}` +
        (representation
          ? ` returning ${selectedColumns(request.query, rules).map(quote).join(', ')}`
          : '');
      const rows = await run(request, async (client) => (await client.query(sql, params)).rows);
      if (!representation) return reply.code(204).send();
      return sendRows(request, reply, rows);
    },
  );

  const callFunction = async (fn: string, request: FastifyRequest, reply: FastifyReply) => {
    const allowed = Object.hasOwn(FUNCTIONS, fn) ? FUNCTIONS[fn] : undefined;
    if (!allowed) throw outsideSubset(`Function '${fn}'`);
    const [args] = bodyRows(request.body ?? {});
    const names = Object.keys(args ?? {});
    for (const name of names) {
      if (!allowed.includes(name)) throw outsideSubset(`Argument '${name}' of '${fn}'`);
    }
    // Objects and arrays are JSON documents, as PostgREST reads a JSON body's values.
    const params = names.map((name) => {
      const value = args?.[name];
      return typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
    });
    const sql = `select * from public.${quote(fn)}(${names
      .map((name, i) => `${quote(name)} => $${i + 1}`)
      .join(', ')})`;
    const rows = await run(request, async (client) => (await client.query(sql, params)).rows);
    return sendRows(request, reply, rows);
  };
  app.post<{ Params: { fn: string } }>(RPC_ROUTE, (request, reply) =>
    callFunction(request.params.fn, request, reply),
  );
  // A story's first save sends it whole: up to the 1 MB a story may hold, as JSON.
  app.post(STORY_SAVE_ROUTE, { bodyLimit: STORY_SAVE_BODY_LIMIT_BYTES }, (request, reply) =>
    callFunction('save_story', request, reply),
  );
  // A picture goes up on its own: its bytes as base64, up to the 256 KB a picture may weigh.
  app.post(PICTURE_SAVE_ROUTE, { bodyLimit: PICTURE_SAVE_BODY_LIMIT_BYTES }, (request, reply) =>
    callFunction('save_story_picture', request, reply),
  );
}
