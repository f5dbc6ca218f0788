import type { ScrambleRecord } from '../store/types.ts';
import { memoryOf, sandboxOf, startTimeoutMs, warmUpOf, type MatchConfig } from './match-config.ts';

/** The limits a job is played under: its match's. */
export interface PlayLimits {
  readonly timeLimitMs: number;
  readonly maxMoves: number;
  /** How long the bot may take to start and say hello. */
  readonly startTimeoutMs: number;
  /** The match's memory limit per bot, bytes (stored in its config); the launcher enforces it. */
  readonly memoryLimitBytes?: number;
  /** The match's disk budget per bot, bytes (stored in its config; absent in older ones); the launcher enforces it. */
  readonly diskBudgetBytes?: number;
  /** The match's scrambles: what one bot process may play, which its CPU-time backstop covers (app/launch). */
  readonly scrambleCount?: number;
  /** The match runs its bots outside the sandbox (stored in its config); a worker's launcher keeps to it. */
  readonly unconfined?: boolean;
  /** An untimed warm-up solve of a throwaway scramble before a bot's first timed one of a class (warm-up.ts). */
  readonly warmUp?: boolean;
  /** Pin each player's bots to cores of its own, where the machine playing the job can (stored in its config). */
  readonly affinity?: boolean;
}

/**
 * The limits every job of a match is played under, read from its stored config: the one place they are
 * derived, so a local match and a worker on another machine play a job alike.
 */
export function playLimitsOf(config: MatchConfig): PlayLimits {
  return {
    timeLimitMs: config.timeLimitMs,
    maxMoves: config.maxMoves,
    startTimeoutMs: startTimeoutMs(config),
    scrambleCount: config.count,
    ...memoryOf(config),
    ...(config.diskBudgetBytes !== undefined ? { diskBudgetBytes: config.diskBudgetBytes } : {}),
    ...sandboxOf(config),
    ...warmUpOf(config),
    ...(config.affinity ? { affinity: true } : {}),
  };
}

/**
 * A unit of work handed to a player: one bot plays these scrambles of one match, in order, and each result
 * is recorded the moment it is validated. A local match hands out one scramble per job (so bots interleave
 * scramble by scramble); a distributed queue hands out batches sized to take seconds.
 */
export interface Job {
  readonly matchId: number;
  readonly bot: string;
  readonly scrambles: readonly ScrambleRecord[];
  readonly limits: PlayLimits;
}

/**
 * How a player left a job: every scramble played (`complete`), stopped early because it is stopping
 * (`abandoned`), or unable to start the job's bot (`refused`: nothing recorded, another machine may play it;
 * only sources that allow it see this, see PlayerDeps.onStartFailure), or stopped between scrambles because
 * the match no longer wants it (`withdrawn`: its SPRT decided; only sources with `wanted` see this).
 */
export type JobEnd = 'complete' | 'abandoned' | 'refused' | 'withdrawn';

/**
 * Where players take their jobs from. Each job is handed to one player; players share nothing else, so the
 * same player code plays a local match (a list) or a distributed one (the queue, in `arena worker`).
 */
export interface JobSource {
  /** The next job, or undefined when there is no more work for the asking player (it then stops). */
  next(): Promise<Job | undefined>;
  /**
   * The player is done with `job`: every scramble has its result (`complete`), or it stopped early because
   * the match is stopping (`abandoned`: what has no result is still to be played, e.g. on resume), or it
   * could not start the bot (`refused`, with the reason).
   */
  end(job: Job, how: JobEnd, reason?: string): Promise<void>;
  /**
   * Whether the match still wants the rest of `job`, asked between its scrambles. A local match hands out
   * one scramble per job, so only a queue's batches need it: once the match's SPRT decided (on any
   * machine), the rest of a batch is not played, as a local match hands out no new scramble.
   */
  wanted?(job: Job): Promise<boolean>;
  /**
   * The player may take its next job while it plays one, and start it the moment the answer in flight comes
   * in (player.ts): only where nothing can withdraw a job once handed out (a local match without an SPRT).
   */
  readonly prefetch?: boolean;
}

/**
 * A job source over a sequence, handing each job out once, in order. The sequence may be produced lazily
 * (an async generator that stores scrambles batch by batch): concurrent `next` calls are queued by the
 * iterator, so no two players ever get the same job.
 */
export function sequenceJobSource(jobs: Iterable<Job> | AsyncIterable<Job>): JobSource {
  const it = Symbol.asyncIterator in jobs ? jobs[Symbol.asyncIterator]() : toAsync(jobs[Symbol.iterator]());
  let finished = false;
  return {
    async next() {
      if (finished) return undefined;
      const r = await it.next();
      if (r.done) finished = true;
      return r.done ? undefined : r.value;
    },
    async end() {
      // Nothing to acknowledge: a local match learns what was played from the store.
    },
  };
}

function toAsync<T>(it: Iterator<T>): AsyncIterator<T> {
  return { next: async () => it.next() };
}
