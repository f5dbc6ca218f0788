/**
 * The port of distributed matches: jobs (a batch of scrambles for one bot) handed to workers on many
 * machines, workers that report a heartbeat, and what a match's jobs are doing. The PostgreSQL
 * implementation (./pg-work-queue.ts) keeps jobs in a job queue library (pg-boss) on the same server as the
 * results; nothing above src/store sees that library.
 */

/**
 * What a job asks: `play` its scrambles with its bot, or `optima`: find the exact optima of its scrambles
 * (once, by whichever worker has an oracle; such a job has no bot of the match).
 */
export type JobTask = 'play' | 'optima';

/** A job to queue: a batch of scrambles for one bot, or for the oracle. */
export type JobSpec = { readonly bot: string; readonly scrambleIds: readonly number[] } | { readonly task: 'optima'; readonly scrambleIds: readonly number[] };

/** One job: play these scrambles of a match with one bot (or settle their optima, see {@link JobTask}). */
export interface QueueJob {
  /** The queue's id of the job (stable across retries). */
  readonly id: string;
  readonly queue: string;
  readonly matchId: number;
  readonly task: JobTask;
  /** The bot to play (an `optima` job: the queue's own marker, never a bot name). */
  readonly bot: string;
  readonly scrambleIds: readonly number[];
  /** 0 on the first delivery, then how often it was handed out again (a worker died or gave it back). */
  readonly attempt: number;
}

/** One bot's jobs of one running match, as a worker sees them. */
export interface MatchQueue {
  readonly matchId: number;
  readonly task: JobTask;
  readonly bot: string;
  readonly queue: string;
}

/** What a worker tells about itself when it starts. */
export interface WorkerInfo {
  readonly name: string;
  readonly host: string;
  /** CPU model, stored with every result the worker plays. */
  readonly cpu: string;
  readonly pid: number;
  readonly concurrency: number;
}

/** A job a worker holds, for listings. */
export interface HeldJob {
  readonly jobId: string;
  readonly matchId: number;
  readonly bot: string;
  readonly scrambles: number;
  readonly startedAt: string;
}

/** A registered worker, for `arena workers` and the match page. */
export interface WorkerRecord extends WorkerInfo {
  readonly id: number;
  readonly startedAt: string;
  readonly heartbeatAt: string;
  /** Seconds since the last heartbeat, by the server's clock. */
  readonly silentSeconds: number;
  readonly stoppedAt?: string;
  readonly stopReason?: string;
  readonly jobs: readonly HeldJob[];
}

/** A worker that could not start a bot of a match. */
export interface Refusal {
  readonly bot: string;
  readonly worker: string;
  readonly reason: string;
}

/** The jobs of a distributed match, by state, and its results so far. */
export interface MatchJobs {
  /** (scramble, bot) pairs with a result, and all of them. */
  readonly results: number;
  readonly total: number;
  /** Waiting for a worker (new, or handed back and due again). */
  readonly queued: number;
  readonly active: number;
  readonly completed: number;
  /** Out of attempts: the match needs `--resume` once the cause is fixed. */
  readonly failed: number;
  /** Why the last failed jobs failed, newest first (at most a few). */
  readonly failures: readonly string[];
  readonly refusals: readonly Refusal[];
  /** Names of the live workers (all of them: any may take this match's jobs). */
  readonly liveWorkers: readonly string[];
  /**
   * Workers neither live nor stopped: silent past the window but not declared dead (no live worker has
   * reaped them), as after a database outage they could not beat through.
   */
  readonly silentWorkers: readonly string[];
}

/** How jobs of a match are leased. */
export interface EnqueueOptions {
  /**
   * How long a worker may hold one job before the queue hands it to another, seconds. A live worker's jobs
   * come back this late only if the worker hangs; a dead worker's come back as soon as its heartbeat stops.
   */
  readonly leaseSeconds: number;
  /** How often a job may be handed out again before it counts as failed. */
  readonly retryLimit?: number;
}

/** Timing of worker liveness. */
export interface LivenessOptions {
  /** A worker with no heartbeat for this long is dead: its jobs go back to the queue. */
  readonly deadAfterSeconds: number;
}

/** The distributed-match port. Every method commits before its promise resolves. */
export interface WorkQueue {
  /** Puts a match's jobs on the queue (one queue per bot). Returns how many jobs were added. */
  enqueue(matchId: number, jobs: readonly JobSpec[], options: EnqueueOptions): Promise<number>;
  /** Drops the jobs of a match still waiting for a worker (a stopped match, or before re-planning it). */
  cancelMatch(matchId: number): Promise<void>;

  registerWorker(info: WorkerInfo): Promise<number>;
  /**
   * Says the worker is alive and holds `holding`; returns jobs the queue thinks it holds that it does not
   * (a fetch whose answer was lost) to the queue, and hands back the jobs of dead workers. Returns false
   * when this worker was itself declared dead meanwhile (it must stop taking jobs and re-register).
   */
  heartbeat(workerId: number, holding: readonly string[], liveness: LivenessOptions): Promise<boolean>;
  /** A clean exit: the worker's unfinished jobs go back to the queue at once. */
  stopWorker(workerId: number, reason: string): Promise<void>;

  /** The queues of running distributed matches, except bots this worker name refused. */
  openQueues(workerName: string): Promise<MatchQueue[]>;
  /** Takes the next job of `queue` for this worker, or undefined when none is waiting. */
  take(workerId: number, queue: MatchQueue): Promise<QueueJob | undefined>;
  /** Marks a job done. False when the job was meanwhile handed to another worker (nothing changed). */
  complete(workerId: number, job: QueueJob): Promise<boolean>;
  /** Hands a job back for another worker (it counts as an attempt). */
  giveBack(workerId: number, job: QueueJob, reason: string): Promise<void>;
  /** Records that this worker cannot start the bot of a match, and why. */
  refuse(workerName: string, matchId: number, bot: string, reason: string): Promise<void>;

  /** The scrambles among `scrambleIds` that already have a result by `bot`. */
  doneScrambles(bot: string, scrambleIds: readonly number[]): Promise<Set<number>>;
  /**
   * Marks the match finished when every (scramble, bot) has a result; true when it is (or was) finished.
   * `unlessQueued` answers false at once while jobs of the match still wait: a worker asks after every job,
   * and counting the match's results each time would cost a scan per job.
   */
  finishIfComplete(matchId: number, o?: { unlessQueued?: boolean }): Promise<boolean>;

  /** Registered workers; stopped ones only with `includeStopped`. */
  listWorkers(options: LivenessOptions & { includeStopped?: boolean }): Promise<WorkerRecord[]>;
  /** What a distributed match's jobs are doing; undefined when the match has no queue. */
  matchJobs(matchId: number, liveness: LivenessOptions): Promise<MatchJobs | undefined>;

  close(): Promise<void>;
}
