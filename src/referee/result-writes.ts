import type { ResultRecord, Store } from '../store/types.ts';

/** One validated result on its way to the store. */
export interface PendingWrite {
  readonly record: ResultRecord;
  /** Runs once the result is committed (the report of it); results are reported in the order they came. */
  readonly committed?: () => void;
}

/** Lets the current turn of the event loop finish: what the turn sent (the next solve) leaves first. */
const afterTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A worker's results between validation and report. A result is committed after the turn of the event loop
 * in which it was validated, by which time the worker has sent the bot its next solve: the commit overlaps
 * the bot's work instead of delaying it. Each result is still committed, in order, before it is reported,
 * and before anything that follows it in the chain (the end of its job). A failed write stops the chain;
 * {@link ResultWrites.check} and {@link ResultWrites.drain} throw it.
 */
export class ResultWrites {
  private tail: Promise<void> = Promise.resolve();
  private failure: { readonly error: unknown } | undefined;

  constructor(private readonly store: Pick<Store, 'recordResult'>) {}

  /** Queues a result's commit, then its report. */
  add(w: PendingWrite): void {
    this.then(async () => {
      await afterTurn();
      await this.store.recordResult(w.record);
      w.committed?.();
    });
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
