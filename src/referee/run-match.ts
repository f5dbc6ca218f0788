import type { PuzzleState, Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import { GENERATOR_VERSION } from '../core/rng.ts';
import type { Verdict } from '../core/verdict.ts';
import type { BotLauncher, BotLink, Clock } from '../protocol/link.ts';
import { puzzleOf } from '../puzzles/index.ts';
import type { MatchRecord, ScrambleRecord, Store } from '../store/types.ts';
import type { MatchConfig } from './match-config.ts';
import { capabilityGap, solveOne } from './solve-one.ts';

/** What the referee is handed: it never opens sockets, files or processes itself. */
export interface MatchDeps {
  readonly store: Store;
  /**
   * Makes a launcher for a bot name of the config. Each worker (see `concurrency`) asks for its own, so
   * parallel jobs never share a bot process.
   */
  makeLauncher(bot: string): BotLauncher;
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
}

/** How a run ended. */
export interface MatchRun {
  readonly match: MatchRecord;
  readonly status: 'finished' | 'interrupted';
}

/** Creates a match with its scrambles (one transaction: a kill cannot leave one without the other) and runs it. */
export async function startMatch(config: MatchConfig, states: readonly PuzzleState[], deps: MatchDeps): Promise<MatchRun> {
  const match = await deps.store.createMatch({
    config,
    seed: config.seed,
    generatorVersion: GENERATOR_VERSION,
    bots: config.bots,
    scrambles: states.map((state, index) => {
      const p = puzzleOf(state);
      return { index, state, puzzleClass: p.className(state), bound: p.bound(state) };
    }),
  });
  return runJobs(match, deps);
}

/** Finishes an interrupted (or killed) match: only the (scramble, bot) pairs without a result are played. */
export async function resumeMatch(id: number, deps: MatchDeps): Promise<Result<MatchRun>> {
  const match = await deps.store.getMatch(id);
  if (!match) return reject('no-match', `no match with id ${id}`);
  if (match.status === 'finished') return reject('finished', `match ${id} is already finished`);
  if ((await deps.store.listScrambles(id)).length === 0) {
    // Only a match killed mid-creation by a version that stored scrambles separately can be in this state.
    return reject('no-scrambles', `match ${id} has no scrambles stored, so there is nothing to resume; start a new match`);
  }
  return { ok: true, value: await runJobs(match, deps) };
}

interface Job {
  readonly scramble: ScrambleRecord;
  readonly bot: string;
}

async function pendingJobs(match: MatchRecord, store: Store): Promise<{ jobs: Job[]; total: number }> {
  const scrambles = await store.listScrambles(match.id);
  const have = new Set((await store.listSummaries(match.id)).map((r) => `${r.scrambleId}\u0000${r.bot}`));
  const jobs: Job[] = [];
  for (const scramble of scrambles) {
    // Rotate which bot goes first so neither always runs on a cold or a warm machine.
    const n = match.bots.length;
    for (let k = 0; k < n; k++) {
      const bot = match.bots[(scramble.index + k) % n];
      if (!have.has(`${scramble.id}\u0000${bot}`)) jobs.push({ scramble, bot });
    }
  }
  return { jobs, total: scrambles.length * match.bots.length };
}

async function runJobs(match: MatchRecord, deps: MatchDeps): Promise<MatchRun> {
  const { store, clock, signal } = deps;
  const config = match.config as MatchConfig;
  await store.setMatchStatus(match.id, 'running');
  const { jobs, total } = await pendingJobs(match, store);
  let done = total - jobs.length;
  let next = 0;
  let requestSeq = 0;

  const launchers: BotLauncher[] = [];
  const worker = async (): Promise<void> => {
    const links = new Map<string, BotLink>();
    const mine = new Map<string, BotLauncher>();
    const launcherOf = (bot: string) => {
      let l = mine.get(bot);
      if (!l) {
        l = deps.makeLauncher(bot);
        mine.set(bot, l);
        launchers.push(l);
      }
      return l;
    };
    try {
      while (next < jobs.length && !signal?.aborted) {
        const job = jobs[next++];
        const outcome = await playJob(job, links, launcherOf(job.bot));
        if (!outcome) break; // aborted: nothing recorded for this job
        await store.recordResult({ scrambleId: job.scramble.id, bot: job.bot, ...outcome });
        done++;
        deps.onResult?.({
          scrambleIndex: job.scramble.index,
          bot: job.bot,
          verdict: outcome.verdict,
          moves: outcome.moveCount,
          wallMs: outcome.wallMs,
          done,
          total,
        });
      }
    } finally {
      await Promise.all([...links.values()].map((l) => l.close('match over')));
    }
  };

  const playJob = async (job: Job, links: Map<string, BotLink>, launcher: BotLauncher) => {
    let link = links.get(job.bot);
    if (!link || link.closed) {
      const t0 = clock.now();
      const got = await launcher.connect();
      if (!got.ok) {
        return { verdict: 'crash' as const, moveCount: 0, moves: '', wallMs: clock.now() - t0, error: `could not start: ${got.reason}` };
      }
      link = got.value;
      links.set(job.bot, link);
    }
    const gap = capabilityGap(link.hello.capabilities, job.scramble.state);
    if (gap) return { verdict: 'unsupported' as const, moveCount: 0, moves: '', wallMs: 0, error: gap };
    const out = await solveOne(
      link,
      { requestId: `m${match.id}-s${job.scramble.index}-r${++requestSeq}`, state: job.scramble.state, timeLimitMs: config.timeLimitMs, maxMoves: config.maxMoves },
      clock,
      signal,
    );
    if (!out) return undefined;
    if (out.linkBroken) {
      await link.close(out.verdict === 'timeout' ? 'timed out' : 'connection lost');
      links.delete(job.bot);
    }
    const { linkBroken: _ignored, ...rest } = out;
    return rest;
  };

  const workers = Array.from({ length: Math.max(1, Math.min(config.concurrency, jobs.length || 1)) }, () => worker());
  try {
    await Promise.all(workers);
  } finally {
    await Promise.all(launchers.map((l) => l.dispose()));
  }
  const status = done === total ? 'finished' : 'interrupted';
  await store.setMatchStatus(match.id, status);
  return { match: (await store.getMatch(match.id)) ?? match, status };
}
