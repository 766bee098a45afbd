import { DatabaseBusyError } from './db';

/** An error in PostgREST's shape: {code, message, details, hint}, with its HTTP status. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string | null = null,
    readonly hint: string | null = null,
    /** Headers the answer carries besides the body (a 429's Retry-After). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'RestError';
  }

  toJSON() {
    return { code: this.code, message: this.message, details: this.details, hint: this.hint };
  }
}

/** A request outside the part of PostgREST this server speaks. */
export const outsideSubset = (what: string) =>
  new RestError(400, 'PGRST100', `${what} is not supported by this server`);

interface PgError {
  code?: string;
  message?: string;
  detail?: string;
  hint?: string;
}

/** HTTP status PostgREST gives a PostgreSQL error (its documented mapping, the part we meet). */
function statusFor(code: string, anonymous: boolean): number {
  if (code === '42501') return anonymous ? 401 : 403; // insufficient privilege / RLS
  if (code === '23505') return 409; // unique violation, and our duplicate-result rule
  if (code === '23503') return 409; // foreign key
  if (code.startsWith('23') || code.startsWith('22')) return 400; // integrity, data
  if (code === 'P0001') return 400; // raise exception
  if (code === '42883' || code === '42P01' || code === '42703') return 404; // missing things
  return 500;
}

/**
 * PostgREST's own ways for a function to choose its answer: SQLSTATE 'PGRST' with the body as
 * JSON in the message and {status, headers} as JSON in the detail (PostgREST 12 and later), and
 * 'PTxyz' for status xyz with the usual body. Null for any other error.
 */
function chosenAnswer(pg: PgError): RestError | null {
  if (pg.code === 'PGRST') {
    try {
      const body = JSON.parse(pg.message ?? '') as Record<string, unknown>;
      const { status, headers = {} } = JSON.parse(pg.detail ?? '') as {
        status: number;
        headers?: Record<string, string>;
      };
      const text = (value: unknown) => (typeof value === 'string' ? value : null);
      return new RestError(
        status,
        text(body.code) ?? 'PGRST',
        text(body.message) ?? '',
        text(body.details),
        text(body.hint),
        headers,
      );
    } catch {
      // As PostgREST does, a malformed 'PGRST' error is the server's own fault.
      return new RestError(
        500,
        'PGRST121',
        'Could not parse JSON in the RAISE SQLSTATE PGRST error',
      );
    }
  }
  const custom = /^PT(\d{3})$/.exec(pg.code ?? '');
  if (custom) {
    return new RestError(
      Number(custom[1]),
      pg.code ?? '',
      pg.message ?? '',
      pg.detail ?? null,
      pg.hint ?? null,
    );
  }
  return null;
}

/** Wraps a database error for the client; anything unexpected stays a generic 500. */
export function fromDatabaseError(error: unknown, anonymous: boolean): RestError {
  if (error instanceof RestError) return error;
  if (error instanceof DatabaseBusyError) return new RestError(503, 'PGRST003', error.message);
  const pg = error as PgError;
  const chosen = pg && chosenAnswer(pg);
  if (chosen) return chosen;
  if (typeof pg?.code === 'string' && /^[0-9A-Z]{5}$/.test(pg.code)) {
    return new RestError(
      statusFor(pg.code, anonymous),
      pg.code,
      pg.message ?? 'Database error',
      pg.detail ?? null,
      pg.hint ?? null,
    );
  }
  return new RestError(500, 'PGRST000', 'Internal server error');
}
