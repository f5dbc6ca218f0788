/**
 * The decider of distributed matches: what a worker asks after each job, what a player asks between the
 * scrambles of a batch, what becomes of an oracle job, and what a watcher asks while it follows a match.
 * The rules are a local match's (match-fate.ts): a decided SPRT wants no more plays, and the match is
 * finished once every optimum it owes (those of the scrambles played) is proved; a match without a
 * decision is finished once every play has its result and every oracle job is done.
 *
 * Nothing is purged on a decision: the queue would lose the oracle jobs of the scrambles played with the
 * plays. A decided match's waiting plays are withdrawn as they come up instead (taken and completed
 * unplayed, see QueueJobSource), and so are its oracle jobs of scrambles nobody played; the match is
 * finished by whichever process sees it with nothing left waiting or held.
 */
import type { OptimumOracle } from '../../solvers/oracle.ts';
import type { SprtProgress } from '../../stats/sprt-progress.ts';
import type { ResultSummary, ScrambleRecord, Store } from '../../store/types.ts';
import type { JobSpec, WorkQueue } from '../../store/work-queue.ts';
import type { MatchConfig } from '../match-config.ts';
import { settleOptima } from '../refine-bounds.ts';
import { storedSprt } from '../sprt-watch.ts';
import { fateOf, optimaOwed, owesOptimum, type MatchFate } from './match-fate.ts';

/** What the decider reads and writes. */
export interface QueueDeciderDeps {
  readonly queue: Pick<WorkQueue, 'finishIfComplete' | 'matchJobs' | 'enqueue'>;
  readonly store: Pick<Store, 'getMatch' | 'listScrambles' | 'listSummaries' | 'setMatchStatus' | 'setScrambleBound' | 'knownOptima' | 'addOptima'>;
}

/** Scrambles per oracle job: one, so the optima spread over every worker that has an oracle. */
const OPTIMA_BATCH = 1;
/**
 * The lease of an oracle job: its budget is 30 s of the oracle's own search per scramble, but the oracle
 * waits while the worker's bots are timed (it is settled beside them), so its wall time can be many times
 * that. A dead worker's job comes back through the heartbeat long before; this only catches a hung one.
 */
const OPTIMA_LEASE_SECONDS = 15 * 60 * OPTIMA_BATCH;

/** Queues an oracle job for each of these scrambles (by id); returns how many jobs were added. */
export async function queueOptima(queue: Pick<WorkQueue, 'enqueue'>, matchId: number, scrambleIds: readonly number[]): Promise<number> {
  const jobs: JobSpec[] = [];
  for (let i = 0; i < scrambleIds.length; i += OPTIMA_BATCH) jobs.push({ task: 'optima', scrambleIds: scrambleIds.slice(i, i + OPTIMA_BATCH) });
  return jobs.length > 0 ? queue.enqueue(matchId, jobs, { leaseSeconds: OPTIMA_LEASE_SECONDS }) : 0;
}

/** What a decision did (said once per process and match). */
export type DecideEvent = { readonly type: 'decided'; readonly matchId: number; readonly sprt: SprtProgress } | { readonly type: 'finished'; readonly matchId: number };

/** How often the state of a match is read again for a player in the middle of a batch, ms. */
const STATUS_MS = 2_000;
/** The worker liveness window for counting a match's held jobs (any value: only the counts are read). */
const LIVENESS = { deadAfterSeconds: 30 } as const;

/** The decisions of distributed matches as one process (a worker, a watcher) sees them; see the file header. */
export class QueueDecider {
  /** Decisions seen, by match: an SPRT that decided stays decided (later results are not counted). */
  private readonly decisions = new Map<number, SprtProgress>();
  /** Matches whose decision this process has told of (once each). */
  private readonly announced = new Set<number>();
  /** Per match: whether it still wants plays, and when that was read (see wanted). */
  private readonly wants = new Map<number, { wanted: boolean; at: number }>();

  constructor(private readonly deps: QueueDeciderDeps) {}

  /**
   * After a job of the match ended (played, withdrawn, or an oracle job settled): decides, and finishes the
   * match when nothing is left to do. Returns what happened for the first time in this process.
   */
  async afterJob(matchId: number, config: MatchConfig, o: { readonly unlessQueued?: boolean } = { unlessQueued: true }): Promise<DecideEvent[]> {
    const { queue, store } = this.deps;
    // Finished (here or on another machine), or stopped: nothing to decide.
    if ((await store.getMatch(matchId))?.status !== 'running') return [];
    const events: DecideEvent[] = [];
    const fate = await this.fate(matchId, config);
    const sprt = this.decisions.get(matchId);
    if (fate === 'decided' && sprt) {
      if (!this.announced.has(matchId)) events.push({ type: 'decided', matchId, sprt });
      this.announced.add(matchId);
      const jobs = await queue.matchJobs(matchId, LIVENESS);
      if (jobs && jobs.queued + jobs.active > 0) return events;
      // Nothing waits or runs: a scramble played late (in flight at the decision, after its oracle job was
      // withdrawn as unplayed) still owes its optimum, and gets a job of its own before the match finishes.
      const owed = optimaOwed(await store.listScrambles(matchId), await store.listSummaries(matchId));
      if ((await queueOptima(queue, matchId, owed.map((s) => s.id))) > 0) return events;
      await store.setMatchStatus(matchId, 'finished');
      events.push({ type: 'finished', matchId });
      return events;
    }
    if (await queue.finishIfComplete(matchId, o)) events.push({ type: 'finished', matchId });
    return events;
  }

  /**
   * Whether a match still wants plays, read at most every {@link STATUS_MS} per match: a test decided on
   * another machine stops a batch within about that long. A failed read keeps playing.
   */
  async wanted(matchId: number, config: MatchConfig): Promise<boolean> {
    if (this.decisions.has(matchId)) return false;
    const seen = this.wants.get(matchId);
    if (seen && (!seen.wanted || performance.now() - seen.at < STATUS_MS)) return seen.wanted;
    try {
      const running = (await this.deps.store.getMatch(matchId))?.status === 'running';
      const wanted = running && (await this.fate(matchId, config)) !== 'decided';
      this.wants.set(matchId, { wanted, at: performance.now() });
      return wanted;
    } catch {
      return true;
    }
  }

  /**
   * Settles an oracle job: the exact optima of its scrambles the match owes (a decided match owes only
   * those played), each stored and cached as found, by the refiner a local match runs; how many it owed.
   * `interrupted` when the oracle was closed first (the job goes back; what was stored stays).
   */
  async settle(oracle: OptimumOracle, matchId: number, config: MatchConfig, scrambles: readonly ScrambleRecord[]): Promise<{ how: 'settled' | 'interrupted'; owed: number }> {
    const results = await this.deps.store.listSummaries(matchId);
    const fate = await this.fate(matchId, config, results);
    const played = new Set(results.map((r) => r.scrambleId));
    const owed = scrambles.filter((s) => owesOptimum(fate, s, played));
    if (owed.length === 0) return { how: 'settled', owed: 0 };
    const ids = new Set(owed.map((s) => s.id));
    return { how: await settleOptima(this.deps.store, oracle, owed, results.filter((r) => ids.has(r.scrambleId)), config.bots.length), owed: owed.length };
  }

  /** The match's fate by its stored results; a decision, once seen, is kept. */
  private async fate(matchId: number, config: MatchConfig, results?: readonly ResultSummary[]): Promise<MatchFate> {
    const known = this.decisions.get(matchId);
    if (known) return 'decided';
    if (!config.sprt) return 'open';
    const sprt = storedSprt(config, results ?? (await this.deps.store.listSummaries(matchId)));
    if (sprt?.decision) this.decisions.set(matchId, sprt);
    // `complete` is the queue's to say (finishIfComplete counts in the database): here only decided or not.
    return fateOf(sprt, 0, 1);
  }
}
