import type { CappedText } from '../core/capped-text.ts';
import type { PuzzleState, Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import { GENERATOR_VERSION } from '../core/rng.ts';
import type { Verdict } from '../core/verdict.ts';
import type { BotLauncher, Clock } from '../protocol/link.ts';
import type { OptimumOracle } from '../solvers/oracle.ts';
import type { MatchRecord, NewScramble, Store } from '../store/types.ts';
import { playLimitsOf, sequenceJobSource, type Job } from './job-source.ts';
import type { MatchConfig } from './match-config.ts';
import { LocalDecider } from './decide/local-decider.ts';
import { resumable } from './decide/resume-check.ts';
import { planPlays, playedKeys } from './plan.ts';
import { firstBatch, newScramble, SCRAMBLE_BATCH_BYTES, scramblePages } from './scrambles/scramble-batches.ts';
import { SharedLinks } from './shared-links.ts';
import type { LinkKeeper } from './link-keeper.ts';
import { StartGuard, type BlockedBot } from './start-guard.ts';
import { RestartLoops, type RestartLoop } from './restart-loops.ts';
import type { SprtProgress } from '../stats/sprt-progress.ts';
import type { LaunchOptions } from './launch-key.ts';
import { runPlayer, type Recorded } from './player.ts';
import { markForOracle, type BoundEvent } from './refine-bounds.ts';
import { guardStore } from './store-guard.ts';

/** What the referee is handed: it never opens sockets, files or processes itself. */
export interface MatchDeps {
  readonly store: Store;
  /**
   * Makes a launcher for a bot name of the config. Each player (see `concurrency`) asks for its own, so
   * parallel jobs never share a bot process.
   */
  makeLauncher(bot: string, opts: LaunchOptions): BotLauncher;
  readonly clock: Clock;
  /** Aborting stops the match cleanly: bots told bye and killed, match marked interrupted. */
  readonly signal?: AbortSignal;
  /** Progress, one event per recorded result. */
  onResult?(event: ResultEvent): void;
  /** Bytes of scramble states held at once (batch sizing); default SCRAMBLE_BATCH_BYTES. For tests. */
  readonly scrambleBatchBytes?: number;
  /**
   * Knows exact optima where the cheap bound is only a bound (4×4 sliding boards); it works beside the
   * match, and the match waits for its answers (each within the oracle's budget) before it ends.
   */
  readonly oracle?: OptimumOracle;
  /** Progress of the oracle, one event per scramble it answered. */
  onBound?(event: BoundEvent): void;
  /** Called once the match exists (created, or found for a resume), before anything is played. */
  onStart?(start: MatchStart): void;
  /**
   * Where bots that said `reuse` are taken from and left for the next match (a ladder's; link-keeper.ts).
   * Absent: each match starts its bots and tells them all bye at its end.
   */
  readonly keeper?: LinkKeeper;
}

/** A match about to be played. */
export interface MatchStart {
  readonly match: MatchRecord;
  /** Plays in the match (scrambles × bots), and how many already have a result. */
  readonly total: number;
  readonly done: number;
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
  /** Why the match stopped short of its scrambles without being aborted (scrambles that cannot be made). */
  readonly stopped?: string;
  /**
   * The store refused a write (a full disk): the match stopped there, interrupted; every result recorded
   * before it stands, the play in flight was not recorded, and a resume plays the rest. The store's reason.
   */
  readonly storeError?: string;
}

/**
 * Creates a match with these scrambles stored with it (one transaction), each marked for the exact oracle
 * when the oracle can improve its bound: how every match starts, played here or queued for workers.
 */
export function createMatchWith(store: Pick<Store, 'createMatch'>, config: MatchConfig, states: readonly PuzzleState[], oracle: OptimumOracle | undefined): Promise<MatchRecord> {
  return store.createMatch({
    config,
    seed: config.seed,
    generatorVersion: GENERATOR_VERSION,
    bots: config.bots,
    scrambles: states.map((s, i) => markForOracle(newScramble(s, i), oracle)),
  });
}

/** Creates a match with explicit scrambles (all stored with the match, one transaction; they set its count) and runs it. */
export async function runNewMatch(given: MatchConfig, states: readonly PuzzleState[], deps: MatchDeps): Promise<MatchRun> {
  const config = { ...given, count: states.length };
  return playMatch(await createMatchWith(deps.store, config, states, deps.oracle), config, deps);
}

/**
 * Creates a match whose scrambles are generated from `config.spec`: its first batch is stored with the
 * match (one transaction), the rest as play reaches them. Refuses, before creating anything, a spec whose
 * single scramble is too big to send.
 */
export async function startGeneratedMatch(config: MatchConfig, deps: MatchDeps): Promise<Result<MatchRun>> {
  const first = firstBatch(config, deps.scrambleBatchBytes);
  if (!first.ok) return first;
  const match = await createMatchWith(deps.store, config, first.value.states, deps.oracle);
  return { ok: true, value: await playMatch(match, config, deps) };
}

/**
 * Finishes an interrupted (or killed) match: only the (scramble, bot) pairs without a result are played, and
 * the optima it still owes are proved (a match decided while they were being proved owes only those).
 */
export async function runResumedMatch(id: number, deps: MatchDeps): Promise<Result<MatchRun>> {
  const found = await resumable(deps.store, id);
  if (!found.ok) return found;
  if ((await deps.store.listScrambles(id, { from: 0, limit: 1 })).length === 0) {
    // createMatch stores scrambles with the match, so only an older version killed mid-creation leaves this.
    return reject('no-scrambles', `match ${id} has no scrambles stored, so there is nothing to resume; start a new match`);
  }
  return { ok: true, value: await playMatch(found.value.match, found.value.config, deps) };
}

/**
 * Plays what a match is missing: the planner lists, page by page of scrambles, the plays without a result;
 * a pool of players takes them one job each from a shared source; this function alone counts progress and
 * sets the status.
 */
async function playMatch(match: MatchRecord, config: MatchConfig, deps: MatchDeps): Promise<MatchRun> {
  await deps.store.setMatchStatus(match.id, 'running');
  // From here a failed write stops the match (store-guard.ts) as an abort does.
  const guard = guardStore(deps.store);
  const { store } = guard;
  // A player that fails for any other reason (a bug) stops the others too, before the error is thrown.
  const failedPlayer = new AbortController();
  const { signal, release } = anySignal([...(deps.signal ? [deps.signal] : []), guard.signal, failedPlayer.signal]);
  const stored = await store.listSummaries(match.id);
  const played = playedKeys(stored);
  // The SPRT and the exact oracle (beside the players): a match stopped early leaves the rest for its resume.
  const decider = new LocalDecider(config, stored, store, deps.oracle, deps.onBound);
  const total = config.count * config.bots.length;
  const limits = playLimitsOf(config);
  let stopped: string | undefined;
  const mark = (s: NewScramble) => markForOracle(s, deps.oracle);
  const pages = scramblePages(match, config, store, deps.scrambleBatchBytes ?? SCRAMBLE_BATCH_BYTES, mark, (why) => {
    stopped = why;
  });
  async function* jobs(): AsyncGenerator<Job> {
    for await (const page of pages) {
      decider.page(page);
      for (const p of planPlays(config.bots, page, played)) {
        // Once the SPRT decides, no new job is handed out (nor scramble made); plays in flight finish.
        if (!decider.wantsPlays) return;
        yield { matchId: match.id, bot: p.bot, scrambles: [p.scramble], limits };
      }
    }
  }

  let done = played.size;
  const loops = new RestartLoops();
  deps.onStart?.({ match, total, done });
  // The SPRT and the oracle hear of a result as soon as it is validated (the SPRT must decide before the next
  // job is handed out); progress is reported once the result is committed, with the SPRT as it stood then.
  const sprtAt = new Map<Recorded, SprtProgress>();
  const onPlayed = (r: Recorded) => {
    const at = decider.played({ scramble: r.scramble, bot: r.job.bot, ...r.outcome });
    if (at) sprtAt.set(r, at);
  };
  const onRecorded = (r: Recorded) => {
    const { job, scramble, outcome } = r;
    done++;
    // A bot given up on is not restarted at all: its charged scrambles are said once, as blocked, not as a loop.
    if (starts.blocked(job.bot) === undefined) loops.record(job.bot, scramble.index, outcome.verdict);
    const at = sprtAt.get(r);
    sprtAt.delete(r);
    deps.onResult?.({
      scrambleIndex: scramble.index,
      bot: job.bot,
      verdict: outcome.verdict,
      moves: outcome.moveCount,
      wallMs: outcome.wallMs,
      done,
      total,
      ...(at ? { sprt: at } : {}),
    });
  };
  const starts = new StartGuard();
  // Without an SPRT no job is ever withdrawn, so a player may take its next one while it plays (job-source.ts).
  const source = { ...sequenceJobSource(jobs()), prefetch: !config.sprt };
  // A bot that is one connection (a remote bot) is shared by the players, one request at a time.
  const shared = new SharedLinks();
  // Timed solves hold the oracle, so it never takes a core from a bot being timed.
  const oracle = deps.oracle;
  const hold = oracle?.hold ? { hold: () => oracle.hold!() } : {};
  // Each bot's stderr is kept with the match; a failed write loses only that text (see player.ts).
  const keepStderr = (matchId: number, bot: string, text: CappedText) => deps.store.stderrs().append(matchId, bot, text);
  const playerDeps = { store, clock: deps.clock, makeLauncher: deps.makeLauncher, starts, shared, onPlayed, onRecorded, keepStderr, signal, ...hold, ...(deps.keeper ? { keeper: deps.keeper } : {}) };
  const players = Math.max(1, Math.min(config.concurrency, total - done));
  // Stopping the match stops the oracle too: its unanswered scrambles stay pending.
  const stopOracle = () => {
    decider.stop();
    void deps.oracle?.close();
  };
  if (signal.aborted) stopOracle();
  else signal.addEventListener('abort', stopOracle, { once: true });
  // Finished, or interrupted with plays or owed optima left: the decider says once the players have ended.
  let ending: 'finished' | 'interrupted' = 'interrupted';
  try {
    // Every player ends (a failed write aborts the others) before the match's fate is decided.
    const ends = await Promise.allSettled(
      Array.from({ length: players }, (_, player) =>
        runPlayer(source, { ...playerDeps, player }).catch((e: unknown) => {
          failedPlayer.abort();
          throw e;
        }),
      ),
    );
    const bug = ends.find((e) => e.status === 'rejected');
    if (bug && guard.failure() === undefined) throw bug.reason;
    ending = await decider.settle(match.id, done, total, signal);
  } catch (e) {
    if (guard.failure() === undefined) throw e;
  } finally {
    signal.removeEventListener('abort', stopOracle);
    release();
    await shared.dispose();
  }
  const storeError = guard.failure();
  if (storeError !== undefined) {
    // If even this write fails, the match stays `running`; a resume takes a running match all the same.
    await deps.store.setMatchStatus(match.id, 'interrupted').catch(() => undefined);
    const latest = await deps.store.getMatch(match.id).catch(() => undefined);
    return { match: latest ?? match, status: 'interrupted', blocked: starts.report(), restartLoops: loops.report(), storeError };
  }

  // Decided or complete, with every optimum it owes proved: finished (a decided SPRT needs no more scrambles).
  await store.setMatchStatus(match.id, ending);
  const test = decider.test;
  return {
    match: (await store.getMatch(match.id)) ?? match,
    status: ending,
    blocked: starts.report(),
    restartLoops: loops.report(),
    ...(test ? { sprt: test } : {}),
    ...(stopped !== undefined && !test?.decision ? { stopped } : {}),
  };
}

/**
 * Aborted as soon as any of `signals` is (AbortSignal.any, which Node has only from 20.3). `release` takes
 * its listeners off the given signals again: a ladder passes one long-lived signal to match after match, and
 * a listener left behind by each one set off MaxListenersExceededWarning after the tenth game.
 */
function anySignal(signals: readonly AbortSignal[]): { signal: AbortSignal; release(): void } {
  const c = new AbortController();
  const abort = () => c.abort();
  for (const s of signals) {
    if (s.aborted) c.abort();
    else s.addEventListener('abort', abort, { once: true });
  }
  return { signal: c.signal, release: () => signals.forEach((s) => s.removeEventListener('abort', abort)) };
}
