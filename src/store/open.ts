/**
 * Where the leaderboard database lives. Kept apart from the SQLite store so callers can compute the path
 * (for messages, `--db` defaults) without opening anything.
 */
import path from 'node:path';

/** Environment variable that overrides the database path. */
export const ENV_DB = 'ARENA_DB';

/** Default file name, at the project root. */
export const DEFAULT_DB_FILE = 'leaderboard.db';

/**
 * The database path: `$ARENA_DB` when set and non-empty, else `<projectRoot>/leaderboard.db`. A relative
 * `$ARENA_DB` is resolved against the working directory, as a path typed in a shell would be; `:memory:` is
 * passed through for throwaway runs.
 */
export function defaultDbPath(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[ENV_DB];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return fromEnv === ':memory:' ? fromEnv : path.resolve(fromEnv);
  return path.join(projectRoot, DEFAULT_DB_FILE);
}
