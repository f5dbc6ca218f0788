/** better-sqlite3's errors: their first line, their codes, and which constraint they broke. */

/** The first line of an error's message. */
export function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0];
}

/** better-sqlite3's error code (SQLITE_…), if any. */
export function sqliteCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}

/** True for a UNIQUE or PRIMARY KEY violation. */
export function isUniqueViolation(err: unknown): boolean {
  const code = sqliteCode(err);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True for a FOREIGN KEY violation. */
export function isForeignKeyViolation(err: unknown): boolean {
  return sqliteCode(err) === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
