/**
 * Two referees (or a referee and `arena backup`, a ladder, a web server's reader) may share one SQLite file.
 * SQLite lets one connection write at a time; the others must wait their turn, not fail. Two things make
 * that work:
 * - every write transaction begins IMMEDIATE (takes the write lock first, waiting up to busy_timeout), because
 *   a deferred one that read first and then writes cannot wait: SQLite answers SQLITE_BUSY at once when
 *   another connection committed since its read began (waiting could not help, its snapshot is stale), which
 *   is what stopped two `arena match` runs on one file with "database is locked";
 * - a write that still meets SQLITE_BUSY (the other writer held the lock longer than busy_timeout, e.g. a
 *   checkpoint on a slow disk) is tried again after a growing, jittered pause before the error is let through.
 *   A failed write transaction was rolled back, so trying it again writes it once.
 */
import { sqliteCode } from './sqlite-errors.ts';

/** How often a busy write is tried again, and the first pause (doubled each time, with jitter). */
const RETRIES = 6;
const FIRST_PAUSE_MS = 100;

/** True for SQLITE_BUSY and its extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_BUSY_RECOVERY, …). */
export function isBusy(err: unknown): boolean {
  const code = sqliteCode(err);
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Runs `write` (one synchronous write: a statement or a transaction), and again after a pause while SQLite
 * answers busy; after RETRIES pauses (about 6 s beyond the busy_timeout of each try) the error is thrown.
 */
export async function retryBusy<T>(write: () => T, sleep: (ms: number) => Promise<void> = pause): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return write();
    } catch (err) {
      if (!isBusy(err) || attempt >= RETRIES) throw err;
      await sleep(FIRST_PAUSE_MS * 2 ** attempt * (0.5 + Math.random()));
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
