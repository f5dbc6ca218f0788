/**
 * How an idle ladder waits: until its field changes in the database (a bot registered, removed or given a
 * new snapshot, by another process: `arena bot add`, a submission) or its poll interval passes, whichever
 * comes first.
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
 * Waits up to `pollMs` for a write to the database (after the waiter's own last write: the marker is read
 * when the wait starts) that changes what `relevant` reads, when given: a database written all the time by
 * something else (a match played on it) then costs a look at `relevant` per write, not a ladder turn. A
 * store without a cheap marker waits the whole poll.
 */
export async function waitForChange(store: Pick<Store, 'changeMarker'>, pollMs: number, signal: AbortSignal, relevant?: () => Promise<string>): Promise<Wake> {
  let start = await store.changeMarker();
  const before = await relevant?.();
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
    const now = await store.changeMarker();
    if (now === start) continue;
    if (!relevant || (await relevant()) !== before) return 'changed';
    start = now;
  }
}

/** What a ladder's field is made of in the database: the registered bots, their commands and snapshots. */
export async function registeredField(store: Pick<Store, 'listBots'>): Promise<string> {
  return JSON.stringify((await store.listBots()).map((b) => [b.name, b.kind, b.cmd, b.cwd, b.stdio, b.snapshot, b.runtime?.program]));
}
