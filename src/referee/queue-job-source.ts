/**
 * A JobSource over the distributed work queue: what `arena worker` hands to its players (the same runPlayer
 * that plays a local match). It only moves jobs: `next` waits for a job of any running distributed match, in
 * turn across their queues, and returns it as a referee Job: the batch's scrambles minus those that already
 * have a result (a job handed out again after its worker died resumes where that worker stopped). `end`
 * tells the queue how the job went. What a job means for its match (a decided SPRT, a finished match, which
 * optima are owed) is the decider's (decide/queue-decider.ts), the rules a local match follows too; an
 * oracle job is settled by the decider with this worker's oracle, when it has one.
 */
import type { OptimumOracle } from '../solvers/oracle.ts';
import type { ScrambleRecord, Store } from '../store/types.ts';
import type { MatchQueue, QueueJob, WorkQueue } from '../store/work-queue.ts';
import { playLimitsOf, type Job, type JobEnd, type JobSource, type PlayLimits } from './job-source.ts';
import { parseMatchConfig, type MatchConfig } from './match-config.ts';
import { sleepUnlessAborted } from '../core/abortable-sleep.ts';
import { QueueDecider, type DecideEvent } from './decide/queue-decider.ts';

/** Something a worker operator may want to see. */
export type SourceEvent =
  /** `classes`: the puzzle classes of the scrambles to play (what a bot's missing tables are checked against). */
  | { readonly type: 'took'; readonly job: QueueJob; readonly toPlay: number; readonly classes: readonly string[] }
  | { readonly type: 'completed'; readonly job: QueueJob }
  | { readonly type: 'refused'; readonly matchId: number; readonly bot: string; readonly reason: string }
  | { readonly type: 'handed-back'; readonly job: QueueJob; readonly reason: string }
  | DecideEvent
  | { readonly type: 'optima'; readonly matchId: number; readonly scrambles: number; readonly how: 'settled' | 'interrupted' }
  | { readonly type: 'db-error'; readonly message: string };

/** What the source is handed. */
export interface QueueSourceDeps {
  readonly queue: WorkQueue;
  readonly store: Pick<Store, 'getMatch' | 'listScrambles' | 'listSummaries' | 'setMatchStatus' | 'setScrambleBound' | 'knownOptima' | 'addOptima'>;
  /** Finds exact optima where a bound is only a bound; without it this worker leaves oracle jobs to others. */
  readonly oracle?: OptimumOracle;
  /** The worker's current registration id (it changes if the worker had to register again). */
  workerId(): number;
  readonly workerName: string;
  /** Aborting makes a waiting `next` return undefined (the worker stops). */
  readonly signal: AbortSignal;
  /** Longest wait between polls of an idle queue, ms (polls start fast and slow down while idle). */
  readonly maxPollMs?: number;
  onEvent?(event: SourceEvent): void;
}

/** How often the list of open queues is read again, ms. */
const QUEUE_LIST_MS = 2_000;
const MIN_POLL_MS = 100;
/** An idle worker asks at least this often: a new match waits at most about this long for its first job. */
const MAX_POLL_MS = 1_000;

/** Scrambles, config and limits of a match, read once per worker (all fixed when the match is created). */
interface MatchInfo {
  readonly scrambles: ReadonlyMap<number, ScrambleRecord>;
  readonly config: MatchConfig;
  readonly limits: PlayLimits;
}

export class QueueJobSource implements JobSource {
  private queues: MatchQueue[] = [];
  private queuesReadAt = -Infinity;
  private turn = 0;
  private idleMs = MIN_POLL_MS;
  /** (match, bot) pairs this worker could not start: never asked for again. */
  private readonly refused = new Set<string>();
  private readonly matches = new Map<number, Promise<MatchInfo | string>>();
  /** Queue jobs by the referee Job handed out for them. */
  private readonly held = new Map<Job, QueueJob>();
  private readonly decider: QueueDecider;
  /**
   * The oracle job being settled beside the players (one at a time): the oracle waits while a timed solve
   * runs (its holds), as beside a local match, so `next` never spends a proof's time.
   */
  private proving: Promise<void> | undefined;
  /** Wakes each player waiting between polls (an oracle job ended: the next may be taken now). */
  private readonly napping = new Set<() => void>();

  constructor(private readonly deps: QueueSourceDeps) {
    this.decider = new QueueDecider(deps);
  }

  /** Queue ids of the jobs being played now, for the heartbeat. */
  holding(): string[] {
    return [...this.held.values()].map((j) => j.id);
  }

  async next(): Promise<Job | undefined> {
    const { signal } = this.deps;
    while (!signal.aborted) {
      let job: Job | 'settled' | undefined;
      try {
        job = await this.tryTake();
      } catch (err) {
        this.deps.onEvent?.({ type: 'db-error', message: (err as Error).message.split('\n')[0] });
      }
      if (job) this.idleMs = MIN_POLL_MS;
      if (job === 'settled') continue;
      if (job) return job;
      await this.nap(this.idleMs);
      this.idleMs = Math.min(this.idleMs * 2, this.deps.maxPollMs ?? MAX_POLL_MS);
    }
    // Stopping: an oracle job cut short is handed back before the worker says it stopped.
    await this.proving;
    return undefined;
  }

  /** Waits between polls: `ms`, less when the worker stops or an oracle job ends. */
  private async nap(ms: number): Promise<void> {
    const woken = new AbortController();
    const wake = () => woken.abort();
    this.napping.add(wake);
    this.deps.signal.addEventListener('abort', wake, { once: true });
    try {
      await sleepUnlessAborted(ms, woken.signal);
    } finally {
      this.napping.delete(wake);
      this.deps.signal.removeEventListener('abort', wake);
    }
  }

  async end(job: Job, how: JobEnd, reason?: string): Promise<void> {
    const qjob = this.held.get(job);
    if (!qjob) return;
    this.held.delete(job);
    const { queue, onEvent } = this.deps;
    const id = this.deps.workerId();
    try {
      if (how === 'complete' || how === 'withdrawn') {
        // Withdrawn: stopped between scrambles, the match wants no more; nobody should play the rest.
        await queue.complete(id, qjob);
        onEvent?.({ type: 'completed', job: qjob });
        await this.decide(qjob.matchId);
      } else if (how === 'refused') {
        await this.refuse(qjob, reason ?? 'could not start the bot');
      } else {
        await queue.giveBack(id, qjob, 'the worker stopped');
        onEvent?.({ type: 'handed-back', job: qjob, reason: 'the worker stopped' });
      }
    } catch (err) {
      // The job stays held in the queue's eyes: the heartbeat (or the lease) returns it.
      onEvent?.({ type: 'db-error', message: (err as Error).message.split('\n')[0] });
    }
  }

  /** Whether a job's match still wants plays (the decider's answer, read every few seconds). */
  async wanted(job: Job): Promise<boolean> {
    const info = await this.matchInfo(job.matchId).catch(() => undefined);
    if (info === undefined || typeof info === 'string') return true;
    return this.decider.wanted(job.matchId, info.config);
  }

  /** After a job: what the decider makes of its match, told as events. */
  private async decide(matchId: number): Promise<void> {
    const info = await this.matchInfo(matchId);
    if (typeof info === 'string') return;
    for (const e of await this.decider.afterJob(matchId, info.config)) this.deps.onEvent?.(e);
  }

  /**
   * One pass over the open queues, plays before oracle jobs: the first play found, as a referee Job, or
   * `settled` when an oracle job was taken instead (taken when no play is waiting and none is being
   * settled; it is settled beside the players).
   */
  private async tryTake(): Promise<Job | 'settled' | undefined> {
    const { queue, oracle } = this.deps;
    const all = await this.openQueues();
    const plays = all.filter((q) => q.task === 'play');
    for (const queues of [plays, oracle && !this.proving ? all.filter((q) => q.task === 'optima') : []]) {
      for (let k = 0; k < queues.length; k++) {
        const q = queues[(this.turn + k) % queues.length];
        if (this.refused.has(pairKey(q.matchId, q.bot))) continue;
        const qjob = await queue.take(this.deps.workerId(), q);
        if (!qjob) continue;
        // Next time start after this queue, so matches and bots take turns.
        this.turn = (this.turn + k + 1) % queues.length;
        if (qjob.task === 'optima') {
          this.proving = this.settle(qjob)
            .catch((err: unknown) => this.deps.onEvent?.({ type: 'db-error', message: (err as Error).message.split('\n')[0] }))
            .finally(() => {
              this.proving = undefined;
              this.idleMs = MIN_POLL_MS;
              for (const wake of [...this.napping]) wake();
            });
          return 'settled';
        }
        const job = await this.toJob(qjob);
        if (job) return job;
      }
    }
    return undefined;
  }

  /** Hands an oracle job to the decider with this worker's oracle, then tells the queue how it went. */
  private async settle(qjob: QueueJob): Promise<void> {
    const { oracle, onEvent } = this.deps;
    const info = await this.matchInfo(qjob.matchId);
    if (typeof info === 'string') {
      await this.refuse(qjob, info);
      return;
    }
    const scrambles = qjob.scrambleIds.map((id) => info.scrambles.get(id)).filter((s) => s !== undefined);
    onEvent?.({ type: 'took', job: qjob, toPlay: scrambles.length, classes: classesOf(scrambles) });
    const job: Job = { matchId: qjob.matchId, bot: qjob.bot, scrambles, limits: info.limits };
    this.held.set(job, qjob);
    let how: 'settled' | 'interrupted' = 'interrupted';
    try {
      const settled = await this.decider.settle(oracle!, qjob.matchId, info.config, scrambles);
      how = settled.how;
      // A job withdrawn unasked (a scramble nobody played, of a decided match) is not worth a line.
      if (settled.owed > 0) onEvent?.({ type: 'optima', matchId: qjob.matchId, scrambles: settled.owed, how });
    } finally {
      // Cut short (the worker stops, or a write failed): back to the queue; what was stored stays.
      await this.end(job, how === 'settled' ? 'complete' : 'abandoned');
    }
  }

  private async openQueues(): Promise<MatchQueue[]> {
    // Read the list again every few seconds while busy, and on every poll while idle (a new match should
    // not wait for the busy-time refresh).
    const stale = performance.now() - this.queuesReadAt > (this.idleMs > MIN_POLL_MS ? this.idleMs : QUEUE_LIST_MS);
    if (stale) {
      this.queues = await this.deps.queue.openQueues(this.deps.workerName);
      this.queuesReadAt = performance.now();
      for (const id of this.matches.keys()) if (!this.queues.some((q) => q.matchId === id)) this.matches.delete(id);
    }
    return this.queues;
  }

  /** The referee Job for a queue job, or undefined when nothing is left to play (the job is then settled). */
  private async toJob(qjob: QueueJob): Promise<Job | undefined> {
    const { queue, onEvent } = this.deps;
    const info = await this.matchInfo(qjob.matchId);
    if (typeof info === 'string') {
      await this.refuse(qjob, info);
      return undefined;
    }
    // A match that wants no more plays (its SPRT decided) has its waiting jobs withdrawn as they come up.
    const wanted = await this.decider.wanted(qjob.matchId, info.config);
    const done = wanted ? await queue.doneScrambles(qjob.bot, qjob.scrambleIds) : new Set(qjob.scrambleIds);
    const scrambles = qjob.scrambleIds.filter((id) => !done.has(id)).map((id) => info.scrambles.get(id)).filter((s) => s !== undefined);
    onEvent?.({ type: 'took', job: qjob, toPlay: scrambles.length, classes: classesOf(scrambles) });
    const job: Job = { matchId: qjob.matchId, bot: qjob.bot, scrambles, limits: info.limits };
    this.held.set(job, qjob);
    if (scrambles.length === 0) {
      await this.end(job, wanted ? 'complete' : 'withdrawn');
      return undefined;
    }
    return job;
  }

  private matchInfo(matchId: number): Promise<MatchInfo | string> {
    let info = this.matches.get(matchId);
    if (!info) {
      info = this.readMatch(matchId);
      this.matches.set(matchId, info);
      // A failed read is not cached: the next job of the match tries again.
      info.catch(() => this.matches.delete(matchId));
    }
    return info;
  }

  private async readMatch(matchId: number): Promise<MatchInfo | string> {
    const match = await this.deps.store.getMatch(matchId);
    if (!match) return `match ${matchId} is gone`;
    const config = parseMatchConfig(match.config);
    if (!config.ok) return `match ${matchId} has a config this worker cannot read (${config.reason}); is the worker older than the match?`;
    const scrambles = await this.deps.store.listScrambles(matchId);
    return { scrambles: new Map(scrambles.map((s) => [s.id, s])), config: config.value, limits: playLimitsOf(config.value) };
  }

  private async refuse(qjob: QueueJob, reason: string): Promise<void> {
    const { queue, onEvent } = this.deps;
    this.refused.add(pairKey(qjob.matchId, qjob.bot));
    await queue.refuse(this.deps.workerName, qjob.matchId, qjob.bot, reason);
    await queue.giveBack(this.deps.workerId(), qjob, `worker ${this.deps.workerName} cannot start it: ${reason}`);
    onEvent?.({ type: 'refused', matchId: qjob.matchId, bot: qjob.bot, reason });
  }
}

function pairKey(matchId: number, bot: string): string {
  return `${matchId}\u0000${bot}`;
}

/** The distinct puzzle classes of `scrambles`. */
function classesOf(scrambles: readonly ScrambleRecord[]): string[] {
  return [...new Set(scrambles.map((s) => s.puzzleClass))];
}
