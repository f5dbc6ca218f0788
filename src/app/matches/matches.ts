/**
 * A local match: start one, resume one. Settings become a stored config (match-options.ts), the bots are
 * resolved and started by the one launcher (../launch/launch-bot.ts), the referee plays the match in this
 * process with the one preflight and the local decider (src/referee/decide/), and the report comes back.
 * A distributed match is queued by distributed.ts and played by workers (worker-session.ts) through the
 * same referee and the queue decider; listing and showing matches are the records room's
 * (../records/records.ts, re-exported here for the entry points).
 */
import { randomInt } from 'node:crypto';
import type { PuzzleState, Result, ScrambleSpec } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { parseMatchConfig, type MatchConfig } from '../../referee/match-config.ts';
import type { MatchReport } from '../../referee/match-report.ts';
import {
  runResumedMatch as resumeRun,
  startGeneratedMatch,
  runNewMatch as startRun,
  type MatchDeps,
  type MatchRun,
  type MatchStart,
  type ResultEvent,
} from '../../referee/run-match.ts';
import { playWithDefaults, storedFields, type PlaySettings } from '../../referee/settings/stored-settings.ts';
import type { BoundEvent } from '../../referee/refine-bounds.ts';
import { matchSamples, withPreflight } from '../../referee/preflight.ts';
import { resumable } from '../../referee/decide/resume-check.ts';
import { declineNotice } from './playable.ts';
import { SlidingOracle } from '../../solvers/sliding/oracle.ts';
import { databaseFailure, writeRemedy } from '../../store/failure.ts';
import { defaultMemoryLimit, RLIMITS_ENFORCED, RLIMITS_NOTE } from '../../transport/process/bot-limits.ts';
import { CPU_TIME_MEASURED } from '../../transport/process/cpu-meter.ts';
import { startArenaServer, type ArenaServer } from '../../transport/ws-server.ts';
import type { LinkKeeper } from '../../referee/link-keeper.ts';
import { admitRemoteBots } from '../launch/admission.ts';
import { concurrencyWarning, corePins, pinReferee } from '../launch/cores.ts';
import { matchAssetNotices } from '../bots/bot-assets.ts';
import { resolveBot, type ResolvedBot } from '../bots/bot-registry.ts';
import type { AppContext } from '../context.ts';
import { readScrambleFile } from './inputs.ts';
import { launchBot } from '../launch/launch-bot.ts';
import { launchPlanOf } from '../launch/launch-plan.ts';
import { listenNotice, type ListenAddress } from '../listen.ts';
import { reportOf } from '../records/records.ts';
import { sandboxOfMatch } from '../launch/sandbox-policy.ts';

export { listMatches, showMatch, type MatchListing, type ListMatchesOptions } from '../records/records.ts';

export type { CrossTable } from '../../stats/cross-table.ts';
export type { MatchReport, ReportPair, ReportResult, ReportScramble } from '../../referee/match-report.ts';
export type { MatchRun, ResultEvent } from '../../referee/run-match.ts';
export type { BoundEvent } from '../../referee/refine-bounds.ts';
export type { BlockedBot } from '../../referee/start-guard.ts';
export type { SprtProgress } from '../../stats/sprt-progress.ts';

/** Where a match's scrambles come from. */
export type ScrambleSource =
  | { readonly spec: ScrambleSpec; readonly count: number; readonly walk?: number }
  | { readonly file: string };

/**
 * Everything needed to start a match: the bots, where the scrambles come from, where remote bots dial in,
 * and the play settings of the settings schema (src/referee/settings/match-settings.ts, where each is
 * described), each optional: absent, its default (a random seed; the machine's memory limit).
 */
export type StartMatchOptions = {
  /** Bot arguments: "<name> [extra flags]". */
  readonly bots: readonly string[];
  readonly scrambles: ScrambleSource;
  /** Where remote bots dial in; default a free port on 127.0.0.1. */
  readonly listen?: ListenAddress;
} & PlaySettings;

/** How a running match talks to its caller. */
export interface MatchIo {
  /** Aborting stops the match cleanly: bots told bye, the match marked interrupted. */
  readonly signal?: AbortSignal;
  /** One event per recorded result. */
  onResult?(event: ResultEvent): void;
  /** Things the person running the match should know now (where remote bots dial, who may connect). */
  notice?(text: string): void;
  /** Once the match exists, before anything is played: its id, size, and where it is stored. */
  onStart?(start: MatchStartEvent): void;
  /** One event per scramble the exact oracle answered (4×4 boards). */
  onBound?(event: BoundEvent): void;
  /**
   * Keep bots that said `reuse` running for the caller's next match (the ladder's): they are taken from and
   * left in `keeper`, and dial `server`, which outlives the match. Ignored for a match with a remote bot
   * (its server admits that match's remote bots only). Absent: bots are started and ended with the match.
   */
  readonly keep?: BotKeeping;
}

/** Where a caller that plays match after match keeps bots between them (the ladder: ladder-keeping.ts). */
export interface BotKeeping {
  readonly keeper: LinkKeeper;
  readonly server: ArenaServer;
}

/** A match about to be played. */
export interface MatchStartEvent extends MatchStart {
  /** Where the results go (the database path, or a URL without its password). */
  readonly dbLocation: string;
}

/** A finished or interrupted run and its report. */
export interface MatchOutcome {
  readonly run: MatchRun;
  readonly report: MatchReport;
}

/** Checks the options, creates the match with its scrambles, and plays it. */
export async function startMatch(ctx: AppContext, o: StartMatchOptions, io: MatchIo = {}): Promise<Result<MatchOutcome>> {
  const prepared = prepareMatch(o);
  if (!prepared.ok) return prepared;
  const { config, states } = prepared.value;
  const crowded = concurrencyWarning(config.concurrency);
  if (crowded) io.notice?.(crowded);
  // Before any bot starts: a bot that would play weakened for want of its prepared tables, and the fix.
  for (const line of matchAssetNotices(ctx.projectRoot, config.bots, { ...(config.spec ? { spec: config.spec } : {}), ...(states ? { states } : {}) })) io.notice?.(line);
  return withBots(ctx, config, o.listen, io, { new: true }, (deps, played) => playIfPlayable(played, states, deps, io));
}

/**
 * Starts the bots and reads what they declare before anything is generated or stored: a match no bot can
 * play is refused at once, naming which bot declines which class; a bot that declines only some of it is
 * warned about, and the match goes ahead with the connections already made.
 */
async function playIfPlayable(config: MatchConfig, states: PuzzleState[] | undefined, deps: MatchDeps, io: MatchIo): Promise<Result<MatchRun>> {
  // The oracle reads its tables while the bots start (about a second for the 7-8 ones), not after the first answer.
  const samples = matchSamples(config, states);
  if (samples.ok) deps.oracle?.warm?.(samples.value.map((s) => s.state));
  return withPreflight(config, states, deps.makeLauncher, (d) => io.notice?.(declineNotice(d)), async (checked) => {
    const play = { ...deps, makeLauncher: checked.makeLauncher };
    return states ? { ok: true, value: await startRun(config, states, play) } : await startGeneratedMatch(config, play);
  }, deps.keeper);
}

/**
 * The checked config of a match to start (locally or on workers), with its scrambles when they come from a
 * file; generated scrambles are left to be made from the config (in batches, as play reaches them).
 */
export function prepareMatch(o: StartMatchOptions): Result<{ config: MatchConfig; states?: PuzzleState[] }> {
  if (o.bots.length === 0) return reject('no-bots', 'name at least one bot (arena bot list shows them)');
  if (new Set(o.bots).size !== o.bots.length) return reject('bad-bots', 'a bot is named twice');
  const src = o.scrambles;
  // A file is read whole (its size is the user's); generated scrambles are made batch by batch.
  const states = 'file' in src ? readScrambleFile(src.file) : undefined;
  if (states && !states.ok) return states;
  const play: PlaySettings = {
    ...playWithDefaults(o),
    seed: o.seed ?? String(randomInt(0, 2 ** 31)),
    // Stored as played, so a resumed match and a reader of the results know the limit.
    memoryLimitBytes: o.memoryLimitBytes ?? defaultMemoryLimit(),
  };
  const config = parseMatchConfig({
    bots: o.bots,
    ...('spec' in src ? { spec: src.spec, ...(src.walk !== undefined ? { walk: src.walk } : {}) } : { scrambleFile: src.file }),
    count: 'spec' in src ? src.count : states ? states.value.length : 0,
    ...storedFields(play, 'play'),
  });
  if (!config.ok) return config;
  return { ok: true, value: { config: config.value, ...(states ? { states: states.value } : {}) } };
}

/** Finishes an interrupted or killed match: plays only the (scramble, bot) pairs without a result. */
export async function resumeMatch(ctx: AppContext, id: number, io: MatchIo & { listen?: ListenAddress; unconfined?: boolean } = {}): Promise<Result<MatchOutcome>> {
  const found = await resumable(ctx.store, id);
  if (!found.ok) return found;
  const spec = found.value.config.spec;
  if (spec) for (const line of matchAssetNotices(ctx.projectRoot, found.value.config.bots, { spec })) io.notice?.(line);
  return withBots(ctx, found.value.config, io.listen, io, { resume: id, unconfined: io.unconfined === true }, (deps) => resumeRun(id, deps));
}

/**
 * Resolves the bots, decides whether they run confined (a new match records it in the config it is
 * created with), starts the WebSocket server that admits only this match's remote bots, runs `play` with
 * launchers on it, and builds the report from what the store then holds.
 */
async function withBots(
  ctx: AppContext,
  stored: MatchConfig,
  listen: ListenAddress | undefined,
  io: MatchIo,
  how: { readonly new: true } | { readonly resume: number; readonly unconfined: boolean },
  play: (deps: MatchDeps, config: MatchConfig) => Promise<Result<MatchRun>>,
): Promise<Result<MatchOutcome>> {
  const resolved = new Map<string, ResolvedBot>();
  for (const b of stored.bots) {
    const r = await resolveBot(ctx, b);
    if (!r.ok) return r;
    resolved.set(b, r.value);
  }
  const unmeasured = cpuScoringGap(stored, [...resolved.values()]);
  if (unmeasured) return reject('bad-score-by', unmeasured);
  const sandbox = sandboxOfMatch(ctx, stored, [...resolved.values()], how);
  if (!sandbox.ok) return sandbox;
  const { config, confine } = sandbox.value;
  // A kept bot dials the keeper's server, which must outlive this match; a remote bot needs this match's own.
  const keep = [...resolved.values()].some((r) => r.source === 'remote') ? undefined : io.keep;
  const server = keep?.server ?? (await startArenaServer({ ...(listen ?? {}), authenticate: admitRemoteBots(resolved.values()) }));
  let matchId: number | undefined;
  // The exact optimum of 4×4 scrambles, found beside the match (its thread starts only if one is asked for).
  const oracle = ctx.oracle?.() ?? new SlidingOracle();
  let unpinReferee: (() => void) | undefined;
  try {
    const remote = [...resolved.values()].filter((r) => r.source === 'remote').map((r) => r.name);
    const notice = listenNotice(listen, server.url, remote);
    if (notice) io.notice?.(notice);
    if (!RLIMITS_ENFORCED) io.notice?.(RLIMITS_NOTE);
    if (sandbox.value.notice) io.notice?.(sandbox.value.notice);
    // Where there are more cores than players, each player's bots get cores of their own and the referee
    // the rest (cores.ts); the exact oracle works there while bots are timed (a bot on this machine that
    // dials in could be anywhere: not then). The referee's own thread goes there too (until the match
    // ends), so that it takes nothing from a bot. A new match stores the deal, which its report shows.
    const { deal, pins } = corePins(config.concurrency, config.affinity === true, threadsOf(resolved.values()));
    if (pins) unpinReferee = pinReferee(pins, remote.length === 0 ? oracle : undefined);
    for (const name of remote) io.notice?.(`waiting for remote bot ${name} to dial ${server.url} with its token`);
    const run = await play({
      store: ctx.store,
      clock: ctx.clock,
      // Every bot (the preflight's and each player's) from the launch plan of its jobs' limits, as a worker's.
      makeLauncher: (bot, opts) => launchBot(resolved.get(bot)!, launchPlanOf(opts), { server, ctx, ...(pins ? { pins } : {}), prepared: confine }, opts.player),
      oracle,
      ...(keep ? { keeper: keep.keeper } : {}),
      onStart: (s) => {
        matchId = s.match.id;
        io.onStart?.({ ...s, dbLocation: ctx.dbLocation });
      },
      ...(io.signal ? { signal: io.signal } : {}),
      ...(io.onResult ? { onResult: io.onResult } : {}),
      ...(io.onBound ? { onBound: io.onBound } : {}),
    }, 'new' in how ? { ...config, cores: deal } : config);
    if (!run.ok) return run;
    const report = await reportOf(ctx, run.value.match);
    return { ok: true, value: { run: run.value, report } };
  } catch (e) {
    // The database refused a write before play began (creating the match, marking it running).
    const why = databaseFailure(e);
    if (why === undefined) throw e;
    const what = matchId === undefined ? 'nothing was started' : `match ${matchId} was not played further`;
    return reject('db-write', `the database ${ctx.dbLocation} could not be written (${why}): ${what}; ${writeRemedy(why)} and run the same command again`);
  } finally {
    // The oracle's thread first: its tables (577 MB with the 7-8 ones) would make the fork of the taskset
    // that unpins cost 15–25 ms instead of 2.
    await oracle.close();
    unpinReferee?.();
    if (!keep) await server.close();
  }
}

/**
 * The threads each bot this machine starts declares, by the name it plays under (one for those that declare
 * none); a remote bot runs elsewhere, on no core of the deal.
 */
function threadsOf(bots: Iterable<ResolvedBot>): Record<string, number> {
  return Object.fromEntries([...bots].filter((b) => b.source !== 'remote').map((b) => [b.name, b.threads ?? 1]));
}

/**
 * Why a match scored by CPU time cannot be played here, or undefined when it can: CPU time is read from
 * /proc (Linux) for the processes the arena starts, so a remote bot has none.
 */
function cpuScoringGap(config: MatchConfig, bots: readonly ResolvedBot[]): string | undefined {
  if (config.scoreBy !== 'cpu') return undefined;
  if (!CPU_TIME_MEASURED) return `--score-by cpu needs CPU time, which is measured on Linux only (this is ${process.platform})`;
  const remote = bots.filter((b) => b.source === 'remote').map((b) => b.name);
  if (remote.length) return `--score-by cpu needs CPU time, which remote bots do not have (${remote.join(', ')} run elsewhere); use --score-by wall`;
  return undefined;
}
