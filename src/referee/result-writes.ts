import type { ResultRecord, Store } from '../store/types.ts';

/** One validated result on its way to the store. */
export interface PendingWrite {
  readonly record: ResultRecord;
  /** Runs once the result is committed (the report of it); results are reported in the order they came. */
  readonly committed?: () => void;
}

/** Results validated and not yet committed that a player may have while it plays on (back-pressure). */
export const MAX_UNCOMMITTED = 64;

/** Lets the current turn of the event loop finish: what the turn sent (the next solve) leaves first. */
const afterTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A player's results between validation and report. A result is committed after the turn of the event loop
 * in which it was validated, by which time the player has sent the bot its next solve: the commit runs while
 * the bot works instead of delaying it. Results validated while a commit is in flight (a store slower than
 * the bot, such as a remote database) wait for it and are then committed together (one transaction, one
 * write of each page). A fast bot's result on the embedded store is committed alone, in the check phase of
 * its own turn: grouping such results behind a 2 ms window saved SQLite about 12 µs a result but held each
 * group's commit (≈ 70 µs at once) until it met the bot's next answer, which then waited; committing each
 * at once fits in the time the bot takes to answer (docs/benchmarks.md, "the commit in the answer's turn").
 * Each result is still committed, in order, before it is reported, and before anything that follows it in
 * the chain (the end of its job). A player waits before its next play while more than
 * {@link MAX_UNCOMMITTED} results are uncommitted, so a store slower than the bot holds it back instead of
 * letting results pile up. A failed write stops the chain; {@link ResultWrites.check} and
 * {@link ResultWrites.drain} throw it.
 */
export class ResultWrites {
  private tail: Promise<void> = Promise.resolve();
  private failure: { readonly error: unknown } | undefined;
  private uncommitted = 0;
  /** Results waiting for a commit that is queued in the chain and has not started; they join it. */
  private open: PendingWrite[] | undefined;

  constructor(private readonly store: Pick<Store, 'recordResult' | 'recordResults'>) {}

  /** Queues a result's commit, then its report. */
  add(w: PendingWrite): void {
    this.uncommitted++;
    if (this.open) {
      this.open.push(w);
      return;
    }
    const batch: PendingWrite[] = [w];
    this.chain(async () => {
      await afterTurn();
      if (this.open === batch) this.open = undefined;
      await this.commit(batch);
    });
    this.open = batch;
  }

  /** Resolves once at most {@link MAX_UNCOMMITTED} results are waiting for their commit. */
  async room(): Promise<void> {
    while (this.uncommitted > MAX_UNCOMMITTED && !this.failure) await this.tail;
  }

  /**
   * Queues a step after every result queued so far (never run once a write has failed). A result queued
   * later may still join a commit that comes before the step: it is then committed and reported sooner,
   * never later (a local match ends a job per scramble, and closing the batch there would undo the grouping).
   */
  then(step: () => unknown): void {
    this.chain(step);
  }

  private chain(step: () => unknown): void {
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

  /**
   * Commits the batch and reports each result: in one transaction where the store has one, else one commit
   * per result, each reported before the next is committed.
   */
  private async commit(batch: readonly PendingWrite[]): Promise<void> {
    if (batch.length > 1 && this.store.recordResults) {
      try {
        await this.store.recordResults(batch.map((b) => b.record));
      } finally {
        this.uncommitted -= batch.length;
      }
      for (const b of batch) b.committed?.();
      return;
    }
    for (const b of batch) {
      try {
        await this.store.recordResult(b.record);
      } finally {
        this.uncommitted--;
      }
      b.committed?.();
    }
  }
}
