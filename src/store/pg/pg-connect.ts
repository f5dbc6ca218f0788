/**
 * Connecting to PostgreSQL: URL recognition, a pool whose integers come back as numbers, one-line error
 * messages, and riding out a server restart.
 *
 * A restart (or a failover) drops every connection: queries in flight fail with "terminating connection"
 * (57P01), new connections are refused for a few seconds (ECONNREFUSED, then 57P03 "starting up"). The
 * store retries such failures with backoff for a while, so a worker or a watching match carries on once
 * the server is back instead of dying. Only statements that are safe to run twice are retried after they
 * may have reached the server (reads, idempotent writes); the rest are retried only when the connection
 * was never made.
 */
import pg from 'pg';

import { redactPgUrl } from './pg-url.ts';

export { isPgUrl, redactPgUrl } from './pg-url.ts';

const INT8_OID = 20;

/** bigint ids come back as JS numbers: they stay far below 2^53 (a row per result). */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8_OID && format !== 'binary' ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

/** Options of {@link createPgPool}. */
export interface PgPoolOptions {
  /** Most connections this process opens (default 4: a CLI or a worker needs few). */
  readonly max?: number;
  /** application_name, shown in pg_stat_activity (default "puzzle-arena"). */
  readonly applicationName?: string;
}

/**
 * A connection pool for `url`. Errors of connections not running a query (the server went away between
 * queries) are swallowed here: the next query reconnects, and its own error, if any, is what callers see.
 */
export function createPgPool(url: string, options: PgPoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 4,
    application_name: options.applicationName ?? 'puzzle-arena',
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    types,
  });
  pool.on('error', () => undefined);
  // A client checked out between two statements has no pool listener; its connection dying then (a server
  // restart) would be an unhandled 'error' event that kills the process. Its next statement fails instead.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

/** SQLSTATEs and socket codes that mean "the connection or the server is gone", not "your query is wrong". */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: terminating connection due to administrator command
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: the database system is starting up / shutting down
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** Codes where the statement certainly never ran: nothing could be sent. */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', '57P03', '08001']);

function codeOf(err: unknown): string | undefined {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** True when `err` says the server or the connection is gone (worth retrying later). */
export function isConnectionError(err: unknown): boolean {
  const code = codeOf(err);
  if (code !== undefined && CONNECTION_CODES.has(code)) return true;
  // pg reports a socket closed under a query without a code.
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(messageOf(err));
}

/** True when `err` means the statement never reached the server. */
export function neverSent(err: unknown): boolean {
  const code = codeOf(err);
  return (code !== undefined && NEVER_SENT_CODES.has(code)) || /timeout exceeded when trying to connect/i.test(messageOf(err));
}

/** A one-line description of a connection-time failure for `url`. */
export function describeConnectError(url: string, err: unknown): string {
  const code = codeOf(err);
  let where = redactPgUrl(url);
  try {
    const u = new URL(url);
    where = `${u.hostname || 'localhost'}:${u.port || 5432}${u.pathname}`;
  } catch {
    // keep the redacted URL
  }
  if (code === 'ECONNREFUSED') return `cannot connect to PostgreSQL at ${where} (connection refused: is the server running?)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot connect to PostgreSQL at ${where} (unknown host)`;
  if (code === '3D000') return `PostgreSQL database does not exist: ${where}`;
  if (code === '28P01' || code === '28000') return `PostgreSQL refused the login for ${where}: ${messageOf(err).split('\n')[0]}`;
  return `cannot use PostgreSQL at ${where}: ${messageOf(err).split('\n')[0]}`;
}

/** How {@link withReconnect} retries. */
export interface RetryPolicy {
  /** Give up after this long (ms) of consecutive connection failures. */
  readonly deadlineMs: number;
  /** First wait (ms); doubles up to `maxDelayMs`. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** Long enough for a restart or a failover, short enough that a dead server is reported. */
export const DEFAULT_RETRY: RetryPolicy = { deadlineMs: 120_000, baseDelayMs: 100, maxDelayMs: 2_000 };

/**
 * Runs `op`, retrying while it fails with a connection error: any such error when `idempotent`, else only
 * errors that prove the statement was never sent. Other errors, and the last one after the deadline, go to
 * the caller unchanged.
 */
export async function withReconnect<T>(op: () => Promise<T>, idempotent: boolean, policy: RetryPolicy = DEFAULT_RETRY): Promise<T> {
  const start = Date.now();
  let delay = policy.baseDelayMs;
  for (;;) {
    try {
      return await op();
    } catch (err) {
      const retryable = idempotent ? isConnectionError(err) : neverSent(err);
      if (!retryable || Date.now() - start + delay > policy.deadlineMs) throw err;
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, policy.maxDelayMs);
    }
  }
}

/**
 * Runs `fn` in one transaction on one pooled connection: committed when it resolves, rolled back when it
 * throws. Getting the connection is retried only while none could be made.
 */
export async function withTransaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await withReconnect(() => pool.connect(), false);
  try {
    await client.query('BEGIN');
    const out = await fn(client);
    await client.query('COMMIT');
    return out;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
