import type { ResultRecord, Store } from '../store/types.ts';

/** One validated result on its way to the store. */
export interface PendingWrite {
  readonly record: ResultRecord;
  /** Runs once the result is committed (the report of it); results are reported in the order they came. */
  readonly committed?: () => void;
}

/** Results validated and not yet committed that a player may have while it plays on (back-pressure). */
export const MAX_UNCOMMITTED = 1;

/** Lets the current turn of the event loop finish: what the turn sent (the next solve) leaves first. */
const afterTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A player's results between validation and report. A result is committed after the turn of the event loop
 * in which it was validated, by which time the player has sent the bot its next solve: the commit overlaps
 * the bot's work instead of delaying it. Each result is still committed, in order, before it is reported,
 * and before anything that follows it in the chain (the end of its job). A player waits before its next
 * play while more than {@link MAX_UNCOMMITTED} results are uncommitted, so a store slower than the bot (a
 * remote database) holds it back instead of letting results pile up. A failed write stops the chain;
 * {@link ResultWrites.check} and {@link ResultWrites.drain} throw it.
 */
export class ResultWrites {
  private tail: Promise<void> = Promise.resolve();
  private failure: { readonly error: unknown } | undefined;
  private uncommitted = 0;

  constructor(private readonly store: Pick<Store, 'recordResult'>) {}

  /** Queues a result's commit, then its report. */
  add(w: PendingWrite): void {
    this.uncommitted++;
    this.then(async () => {
      try {
        await afterTurn();
        await this.store.recordResult(w.record);
      } finally {
        this.uncommitted--;
      }
      w.committed?.();
    });
  }

  /** Resolves once at most {@link MAX_UNCOMMITTED} results are waiting for their commit. */
  async room(): Promise<void> {
    while (this.uncommitted > MAX_UNCOMMITTED && !this.failure) await this.tail;
  }

  /** Queues a step after every result queued so far (never run once a write has failed). */
  then(step: () => unknown): void {
    this.tail = this.tail.then(async () => {
      if (this.failure) return;
      try {
        await step();
      } catch (error) {
        this.failure ??= { error };
      }
    });
  }

  /** Throws the error of a write that failed, if one has. */
  check(): void {
    if (this.failure) throw this.failure.error;
  }

  /** Resolves when everything queued has run; throws the error of a write that failed. */
  async drain(): Promise<void> {
    await this.tail;
    this.check();
  }
}
