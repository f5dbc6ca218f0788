/**
 * Tells a database's own failure (a full disk, a read-only file, a lost server) from a bug, so that callers
 * above the store can say "the database could not be written" in one line instead of "internal error".
 * The drivers' error types are known here only.
 */
import Database from 'better-sqlite3';

/** The one-line reason of a database driver's error (SQLite or PostgreSQL); undefined for anything else. */
export function databaseFailure(e: unknown): string | undefined {
  if (e instanceof Database.SqliteError) return e.message.split('\n')[0];
  // node-postgres errors carry the server's SQLSTATE (five characters) and a severity.
  const code = e instanceof Error ? (e as { code?: unknown }).code : undefined;
  if (e instanceof Error && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && 'severity' in e) return e.message.split('\n')[0];
  return undefined;
}

/**
 * What to do about a write the database refused, from its one-line reason: wait for the other writer when it
 * was locked, else make room (a full disk is the usual cause).
 */
export function writeRemedy(why: string): string {
  return /locked|busy/i.test(why) ? 'let the other process using the database finish' : 'free some space';
}
