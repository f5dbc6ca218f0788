/**
 * How an idle ladder waits: until the database changes (a bot registered, removed or given a new snapshot,
 * by another process: `arena bot add`, a submission) or its poll interval passes, whichever comes first.
 * The change is read from the store's change marker (SQLite's data_version: a pragma, no table read), every
 * {@link WAKE_CHECK_MS}; a folder edited in place writes nothing, so the poll interval still finds that.
 * Before this, a registration waited for the next 2 s poll before the ladder even looked at it.
 */
import { sleepUnlessAborted } from '../../core/abortable-sleep.ts';
import type { Store } from '../../store/types.ts';

/** How often the change marker is read while waiting, ms. */
export const WAKE_CHECK_MS = 50;

/** Why the wait ended. */
export type Wake = 'changed' | 'poll' | 'aborted';

/**
 * Waits up to `pollMs` for a write to the database after `since` (a marker read after the waiter's own last
 * write; undefined reads it now). A store without a cheap marker waits the whole poll.
 */
export async function waitForChange(store: Pick<Store, 'changeMarker'>, pollMs: number, signal: AbortSignal, since?: string): Promise<Wake> {
  const start = since ?? (await store.changeMarker());
  const end = Date.now() + pollMs;
  if (start === undefined) {
    await sleepUnlessAborted(pollMs, signal);
    return signal.aborted ? 'aborted' : 'poll';
  }
  for (;;) {
    const left = end - Date.now();
    if (left <= 0) return 'poll';
    await sleepUnlessAborted(Math.min(WAKE_CHECK_MS, left), signal);
    if (signal.aborted) return 'aborted';
    if ((await store.changeMarker()) !== start) return 'changed';
  }
}
