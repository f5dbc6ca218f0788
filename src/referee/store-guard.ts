/**
 * A store write that fails (a full disk, a lost database) is no bot's fault and no verdict: the match
 * cannot go on, so it stops as an abort would. The store the engine plays with is wrapped so that the first
 * failure of any call is remembered and aborts the match's internal signal: the other workers cancel what
 * they are playing (nothing of it is recorded, so a resume plays it again, once), and the runner reports the
 * failure instead of throwing past bots still running.
 */
import type { Store } from '../store/types.ts';

/** A store whose failures stop the match, and what the first one said. */
export interface GuardedStore {
  readonly store: Store;
  /** Aborted at the first failed store call. */
  readonly signal: AbortSignal;
  /** The first failure's message, once one happened. */
  failure(): string | undefined;
}

/** Wraps `store`: every method behaves as before, and a rejection (or throw) also stops the match. */
export function guardStore(store: Store): GuardedStore {
  const halt = new AbortController();
  let first: string | undefined;
  const failed = (e: unknown): never => {
    first ??= e instanceof Error ? e.message.split('\n')[0] : String(e);
    halt.abort();
    throw e;
  };
  const guarded = new Proxy(store, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        try {
          const out: unknown = value.apply(target, args);
          return out instanceof Promise ? out.catch(failed) : out;
        } catch (e) {
          return failed(e);
        }
      };
    },
  });
  return { store: guarded, signal: halt.signal, failure: () => first };
}
