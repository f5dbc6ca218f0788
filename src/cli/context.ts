import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDbPath } from '../store/open.ts';
import { openSqliteStore } from '../store/sqlite-store.ts';
import type { Store } from '../store/types.ts';
import { CliError } from './errors.ts';

/** The repository root: bots/, matches/ and the default leaderboard.db live here. */
export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Opens the results database: `--db`, else ARENA_DB, else <root>/leaderboard.db (created on first use). */
export function openStore(dbFlag?: string): { store: Store; path: string } {
  const path = dbFlag ? resolve(dbFlag) : defaultDbPath(PROJECT_ROOT);
  try {
    return { store: openSqliteStore(path), path };
  } catch (e) {
    throw new CliError(`cannot open database ${path}: ${(e as Error).message}`);
  }
}
