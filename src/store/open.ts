/**
 * Where the results database lives and how to open it: a SQLite file (the embedded default) or a
 * PostgreSQL server named by a `postgres://` URL (`--db` or ARENA_DB), for matches shared by many machines.
 * The location helpers open nothing, so callers can compute and print the location first.
 */
import path from 'node:path';
import { isPgUrl, redactPgUrl } from './pg/pg-url.ts';
import { openSqliteStore } from './sqlite/sqlite-store.ts';
import type { Store } from './types.ts';
import type { WorkQueue } from './work-queue.ts';

export { isPgUrl } from './pg/pg-url.ts';

/** Environment variable that overrides the database location. */
export const ENV_DB = 'ARENA_DB';

/** Default file name, at the project root. */
export const DEFAULT_DB_FILE = 'leaderboard.db';

/**
 * A location as typed (flag or environment): a postgres URL or `:memory:` as is, a file path resolved
 * against the working directory, as a path typed in a shell would be.
 */
export function normalizeDbLocation(typed: string): string {
  return typed === ':memory:' || isPgUrl(typed) ? typed : path.resolve(typed);
}

/** The database location: `$ARENA_DB` when set and non-empty, else `<projectRoot>/leaderboard.db`. */
export function defaultDbPath(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[ENV_DB];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return normalizeDbLocation(fromEnv);
  return path.join(projectRoot, DEFAULT_DB_FILE);
}

/** The location for messages: a URL without its password. */
export function describeDbLocation(location: string): string {
  return isPgUrl(location) ? redactPgUrl(location) : location;
}

/**
 * Opens (creating and migrating if needed) the store at `location`. Rejects with an Error whose message is
 * a bare one-line reason; the caller adds {@link describeDbLocation}.
 */
export async function openStoreAt(location: string): Promise<Store> {
  // The PostgreSQL driver and the job queue load only when a PostgreSQL URL is opened.
  return isPgUrl(location) ? (await import('./pg/pg-store.ts')).openPgStore(location) : openSqliteStore(location);
}

/** Why a SQLite store cannot hold distributed matches. */
export const NEEDS_PG = 'distributed matches and workers need a PostgreSQL database: --db postgres://user@host/dbname (or ARENA_DB)';

/** True when `store` can hold distributed matches: a PostgreSQL store, the only one with a connection pool. */
export function hasWorkQueue(store: Store): boolean {
  return 'pool' in store;
}

/**
 * The distributed work queue on the same database as `store`. Rejects with a one-line reason unless the
 * store is a PostgreSQL store: workers on other machines cannot share an embedded SQLite file.
 */
export async function openWorkQueue(store: Store, options: { supervise?: boolean; onError?(err: Error): void } = {}): Promise<WorkQueue> {
  const pg = (await import('./pg/pg-store.ts')).asPgStore(store);
  if (!pg) throw new Error(NEEDS_PG);
  return (await import('./pg/pg-work-queue.ts')).openPgWorkQueue(pg.pool, options);
}
