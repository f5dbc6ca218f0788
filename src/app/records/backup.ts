/**
 * `arena backup`: a safe copy of the results database. SQLite: an online backup into one new file (safe
 * while a match runs). PostgreSQL: that is the server's own tool's job, and the refusal names the command.
 */
import { existsSync, statSync } from 'node:fs';
import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { defaultDbPath, describeDbLocation, isPgUrl, normalizeDbLocation } from '../../store/open.ts';
import { backupSqlite } from '../../store/sqlite/sqlite-backup.ts';
import { PROJECT_ROOT } from '../project-root.ts';

/** What was copied where. */
export interface Backup {
  readonly from: string;
  readonly to: string;
  readonly bytes: number;
}

/** Copies the database (`db`, else ARENA_DB, else the project's leaderboard.db) to the new file `to`. */
export async function backupDatabase(o: { db?: string; to: string; env?: NodeJS.ProcessEnv }): Promise<Result<Backup>> {
  const location = o.db ? normalizeDbLocation(o.db) : defaultDbPath(PROJECT_ROOT, o.env);
  const from = describeDbLocation(location);
  if (isPgUrl(location)) {
    return reject('backup-pg', `${from} is a PostgreSQL database: back it up with the server's tool, e.g. pg_dump --schema=arena --format=custom --file=arena.dump "<the same URL>"`);
  }
  if (location === ':memory:') return reject('backup-memory', 'an in-memory database has nothing to back up');
  if (!existsSync(location)) return reject('no-db', `no database at ${from}`);
  const to = normalizeDbLocation(o.to);
  if (existsSync(to)) return reject('backup-exists', `${to} already exists; name a new file (a backup never overwrites)`);
  try {
    await backupSqlite(location, to);
    return { ok: true, value: { from, to, bytes: statSync(to).size } };
  } catch (e) {
    return reject('backup-failed', `cannot back up ${from} to ${to}: ${(e as Error).message}`);
  }
}
