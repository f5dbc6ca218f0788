/** Recognising and redacting PostgreSQL URLs, without loading the driver (a SQLite command never loads it). */

/** True for a `postgres://` or `postgresql://` URL (what `--db` / ARENA_DB accept besides a file path). */
export function isPgUrl(s: string): boolean {
  return /^postgres(ql)?:\/\//i.test(s);
}

/** The URL without its password, for messages. */
export function redactPgUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
  }
}
