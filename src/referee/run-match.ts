import type { PuzzleState, Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import { GENERATOR_VERSION } from '../core/rng.ts';
import type { Verdict } from '../core/verdict.ts';
import type { BotLauncher, Clock } from '../protocol/link.ts';
import { puzzleOf } from '../puzzles/index.ts';
import type { MatchRecord, NewScramble, ScrambleRecord, Store } from '../store/types.ts';
import { sequenceJobSource, type Job, type PlayLimits } from './job-source.ts';
import { memoryOf, parseMatchConfig, startTimeoutMs, type MatchConfig } from './match-config.ts';
import { planPlays, playedKeys } from './plan.ts';
import { StartGuard, type BlockedBot } from './start-guard.ts';
import type { ScoredResult } from './match-stats.ts';
import { RestartLoops, type RestartLoop } from './restart-loops.ts';
import type { SprtParams } from './sprt.ts';
import { sprtProgress, type SprtProgress } from './sprt-progress.ts';
import { runWorker, type LaunchOptions, type Recorded } from './worker.ts';

/** What the referee is handed: it never opens sockets, files or processes itself. */
export interface MatchDeps {
  readonly store: Store;
  /**
   * Makes a launcher for a bot name of the config. Each worker (see `concurrency`) asks for its own, so
   * parallel jobs never share a bot process.
   */
  makeLauncher(bot: string, opts: LaunchOptions): BotLauncher;
  readonly clock: Clock;
  /** Aborting stops the match cleanly: bots told bye and killed, match marked interrupted. */
  readonly signal?: AbortSignal;
  /** Progress, one event per recorded result. */
  onResult?(event: ResultEvent): void;
}

/** Progress of a match. */
export interface ResultEvent {
  readonly scrambleIndex: number;
  readonly bot: string;
  readonly verdict: Verdict;
  readonly moves: number;
  readonly wallMs: number;
  readonly done: number;
  readonly total: number;
  /** Where the match's SPRT stands after this result, when it has one. */
  readonly sprt?: SprtProgress;
}

/** How a run ended. */
export interface MatchRun {
  readonly match: MatchRecord;
  readonly status: 'finished' | 'interrupted';
  /** Bots given up on after failing to start, and how many scrambles that cost them (said once). */
  readonly blocked: readonly BlockedBot[];
  /** The SPRT's state at the end, when the match has one; a decided test finished the match early. */
  readonly sprt?: SprtProgress;
  /** Bots that timed out or crashed on scramble after scramble, each time restarted (said once). */
  readonly restartLoops: readonly RestartLoop[];
}

/** The stored form of scramble `index`. */
export function newScramble(state: PuzzleState, index: number): NewScramble {
  const p = puzzleOf(state);
  return { index, state, puzzleClass: p.className(state), bound: p.bound(state) };
}

/** Creates a match with its scrambles (one transaction: a kill cannot leave one without the other) and runs it. */
export async function startMatch(config: MatchConfig, states: readonly PuzzleState[], deps: MatchDeps): Promise<MatchRun> {
  const match = await deps.store.createMatch({
    config,
    seed: config.seed,
    generatorVersion: GENERATOR_VERSION,
    bots: config.bots,
    scrambles: states.map(newScramble),
  });
  return playMatch(match, config, await deps.store.listScrambles(match.id), deps);
}

/** Finishes an interrupted (or killed) match: only the (scramble, bot) pairs without a result are played. */
export async function resumeMatch(id: number, deps: MatchDeps): Promise<Result<MatchRun>> {
  const match = await deps.store.getMatch(id);
  if (!match) return reject('no-match', `no match with id ${id}`);
  if (match.status === 'finished') return reject('finished', `match ${id} is already finished`);
  const config = parseMatchConfig(match.config);
  if (!config.ok) return reject(config.code, `match ${id} cannot be resumed: ${config.reason}`);
  const scrambles = await deps.store.listScrambles(id);
  if (scrambles.length === 0) {
    // createMatch stores scrambles with the match, so only an older version killed mid-creation leaves this.
    return reject('no-scrambles', `match ${id} has no scrambles stored, so there is nothing to resume; start a new match`);
  }
  return { ok: true, value: await playMatch(match, config.value, scrambles, deps) };
}

/**
 * Plays what a match is missing: the planner lists the plays without a result, a pool of workers takes
 * them one job each from a shared source, and this function alone counts progress and sets the status.
 */
async function playMatch(match: MatchRecord, config: MatchConfig, scrambles: readonly ScrambleRecord[], deps: MatchDeps): Promise<MatchRun> {
  const { store } = deps;
  await store.setMatchStatus(match.id, 'running');
  const stored = await store.listSummaries(match.id);
  const sprt = config.sprt ? new SprtWatch(config.sprt, config, scrambles, stored) : undefined;
  // A test that already decided (the match was killed after that) has nothing left to play.
  const plays = sprt?.state.decision ? [] : planPlays(config.bots, scrambles, playedKeys(stored));
  const total = scrambles.length * config.bots.length;
  const limits: PlayLimits = { timeLimitMs: config.timeLimitMs, maxMoves: config.maxMoves, startTimeoutMs: startTimeoutMs(config), ...memoryOf(config) };
  const jobs = plays.map((p): Job => ({ matchId: match.id, bot: p.bot, scrambles: [p.scramble], limits }));
  // Once the SPRT decides, no new job is handed out; the plays in flight finish and are recorded.
  const source = sequenceJobSource(sprt ? untilDecided(jobs, sprt) : jobs);

  let done = total - plays.length;
  const loops = new RestartLoops();
  const onRecorded = ({ job, scramble, outcome }: Recorded) => {
    done++;
    loops.record(job.bot, scramble.index, outcome.verdict);
    sprt?.record({ scrambleId: scramble.id, bot: job.bot, ...outcome });
    deps.onResult?.({
      scrambleIndex: scramble.index,
      bot: job.bot,
      verdict: outcome.verdict,
      moves: outcome.moveCount,
      wallMs: outcome.wallMs,
      done,
      total,
      ...(sprt ? { sprt: sprt.state } : {}),
    });
  };
  const starts = new StartGuard();
  const workers = Math.max(1, Math.min(config.concurrency, plays.length));
  const workerDeps = { store, clock: deps.clock, makeLauncher: deps.makeLauncher, starts, onRecorded, ...(deps.signal ? { signal: deps.signal } : {}) };
  await Promise.all(Array.from({ length: workers }, () => runWorker(source, workerDeps)));

  // A decided SPRT finishes the match: the rest of the scrambles are not needed.
  const status = done === total || sprt?.state.decision ? 'finished' : 'interrupted';
  await store.setMatchStatus(match.id, status);
  return {
    match: (await store.getMatch(match.id)) ?? match,
    status,
    blocked: starts.report(),
    restartLoops: loops.report(),
    ...(sprt ? { sprt: sprt.state } : {}),
  };
}

/** Follows a match's SPRT as results are recorded (the results seen so far, the progress recomputed). */
class SprtWatch {
  private readonly rows: ScoredResult[];
  private readonly order: number[];
  state: SprtProgress;

  constructor(
    private readonly params: SprtParams,
    private readonly config: MatchConfig,
    scrambles: readonly ScrambleRecord[],
    stored: readonly ScoredResult[],
  ) {
    this.rows = [...stored];
    this.order = [...scrambles].sort((x, y) => x.index - y.index).map((s) => s.id);
    this.state = this.compute();
  }

  record(row: ScoredResult): void {
    this.rows.push(row);
    // The prefix only moves when a scramble completes; recomputing is a pass over it (microseconds each).
    if (!this.state.decision) this.state = this.compute();
  }

  private compute(): SprtProgress {
    const [a, b] = this.config.bots;
    return sprtProgress(this.params, a, b, this.order, this.rows, this.config.marginMs);
  }
}

function* untilDecided(jobs: readonly Job[], sprt: SprtWatch): Generator<Job> {
  for (const job of jobs) {
    if (sprt.state.decision) return;
    yield job;
  }
}
