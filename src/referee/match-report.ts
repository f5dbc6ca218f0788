import { scrambleNumber } from '../core/scramble-number.ts';
import type { CoreDeal } from './settings/core-deal.ts';
import type { Verdict } from '../core/verdict.ts';
import type { MatchRecord, ResultSummary, ScrambleRecord } from '../store/types.ts';
import { buildCrossTable, type CrossTable } from '../stats/cross-table.ts';
import { pairStats, pairTallies, summarizeBots, type BotSummary, type PairStats, type ScoredResult } from '../stats/match-stats.ts';
import { buildScrambleReport, claimContradicted, type ReportScramble } from './scrambles/scramble-report.ts';
import { answeredOrder } from './sprt-watch.ts';
import type { ScoreBy, TieBreak } from '../stats/outcome.ts';
import { speedRatio, tiedTimePairs, type SpeedRatio } from '../stats/speed-ratio.ts';
import type { SprtParams } from '../stats/sprt.ts';
import { sprtProgress, sprtTrace, type SprtProgress, type SprtTrace } from '../stats/sprt-progress.ts';

export type { ReportScramble } from './scrambles/scramble-report.ts';

/** One bot's result on one scramble, as `arena match --json` prints it. */
export interface ReportResult {
  /** The scramble's number, from 1, as every surface shows it (see core/scramble-number.ts). */
  readonly scramble: number;
  readonly bot: string;
  readonly verdict: Verdict;
  readonly moves: number;
  readonly timeMs: number;
  /** CPU time of the bot's processes over the solve, where measured (ResultRecord.cpuMs). */
  readonly cpuMs?: number;
  readonly reportedMs?: number;
  readonly optimal?: number;
  readonly lowerBound: number;
  readonly index?: number;
  readonly reason?: string;
  readonly note?: string;
  /** What the bot said of its answer: optimal or not, and the search nodes it counted. */
  readonly claimedOptimal?: boolean;
  readonly nodes?: number;
  /** Present (true) when the bot claimed an optimal answer that the referee's exact optimum refutes. */
  readonly claimContradicted?: true;
}

/** A pair's head-to-head, from `a`'s point of view. */
export interface ReportPair extends PairStats {
  readonly a: string;
  readonly b: string;
  /**
   * b's time over a's on the scrambles both solved with equal moves (below 1: b is faster), in the time the
   * match scores by (CPU time with --score-by cpu, over the scrambles where both were measured).
   */
  readonly speed: SpeedRatio;
}

/** Everything a match produced, for printing or JSON. */
export interface MatchReport {
  readonly match: {
    readonly id: number;
    readonly status: MatchRecord['status'];
    readonly seed: string;
    readonly generatorVersion: string;
    readonly bots: readonly string[];
    readonly puzzleClasses: readonly string[];
    /** Scrambles stored with the match (an SPRT that decides early leaves some of them unplayed). */
    readonly scrambles: number;
    /** Scrambles with a result from at least one bot. */
    readonly played: number;
    readonly createdAt: string;
    /** Which time broke ties on moves (the match's --score-by). */
    readonly scoreBy: ScoreBy;
    /** Present when the bots the arena started ran outside the sandbox (the match config's `unconfined`). */
    readonly unconfined?: true;
    /**
     * How the cores were dealt when the match was started (its config's `cores`), and the line that says it
     * ("referee 0; ida-star 1; constructive 1", "not pinned: 2 cores for 2 players"); absent in older and
     * distributed matches.
     */
    readonly cores?: { readonly text: string; readonly deal: CoreDeal };
    /**
     * The match's settings as a preset spells them (`{"puzzle":…,"rows":4,…,"timeLimit":"30s"}`;
     * with the bots, a preset that plays it again); absent when its stored config does not validate.
     */
    readonly settings?: Readonly<Record<string, string | number | boolean>>;
  };
  /** Per scramble: the optimum or bound (and why only a bound), the winner and what decided it. */
  readonly scrambles: ReportScramble[];
  readonly results: ReportResult[];
  readonly summary: {
    readonly bots: Readonly<Record<string, BotSummary>>;
    readonly pairs: ReportPair[];
    /** For three or more bots: every pair in one table, per-bot totals and an order. */
    readonly crossTable?: CrossTable;
    /** The SPRT of a match started with one: LLR, bounds, decision, and the scrambles it counted. */
    readonly sprt?: SprtProgress;
  };
}

/**
 * Builds the report of a match from what the store holds (so a resumed match reports every result): its
 * scrambles counted per class (no states needed) and its result summaries.
 * `tie` is the match's rule for equal moves (its validated config's, see tieBreakOf), empty for the defaults.
 */
export function buildMatchReport(
  match: MatchRecord,
  scrambles: readonly ScrambleRecord[],
  rows: readonly ResultSummary[],
  tie: TieBreak = {},
  sprt?: SprtParams,
): MatchReport {
  const order = new Map(match.bots.map((b, i) => [b, i]));
  const sorted = [...rows].sort((p, q) => p.scrambleIndex - q.scrambleIndex || (order.get(p.bot) ?? 0) - (order.get(q.bot) ?? 0));
  const results: ReportResult[] = sorted.map((r) => ({
    scramble: scrambleNumber(r.scrambleIndex),
    bot: r.bot,
    verdict: r.verdict,
    moves: r.moveCount,
    timeMs: round(r.wallMs),
    ...(r.cpuMs !== undefined ? { cpuMs: round(r.cpuMs) } : {}),
    ...(r.reportedMs !== undefined ? { reportedMs: round(r.reportedMs) } : {}),
    ...(r.bound.optimal !== undefined ? { optimal: r.bound.optimal } : {}),
    lowerBound: r.bound.lowerBound,
    ...(r.errorIndex !== undefined ? { index: r.errorIndex } : {}),
    ...(r.error !== undefined ? { reason: r.error } : {}),
    ...(r.note !== undefined ? { note: r.note } : {}),
    ...(r.claimedOptimal !== undefined ? { claimedOptimal: r.claimedOptimal } : {}),
    ...(r.nodes !== undefined ? { nodes: r.nodes } : {}),
    ...(claimContradicted(r, r.bound) ? { claimContradicted: true as const } : {}),
  }));
  const summaries = summarizeBots(rows);
  const bots: Record<string, BotSummary> = {};
  for (const b of match.bots) {
    const s = summaries.get(b);
    if (s) bots[b] = s;
  }
  // Pairs in the order the bots were given, first-named bot's point of view.
  const tallies = pairTallies(rows, tie);
  const time = tie.scoreBy === 'cpu' ? (r: ScoredResult) => r.cpuMs ?? Number.NaN : (r: ScoredResult) => r.wallMs;
  const pairs: ReportPair[] = [];
  for (let i = 0; i < match.bots.length; i++) {
    for (let j = i + 1; j < match.bots.length; j++) {
      const a = match.bots[i];
      const b = match.bots[j];
      const t = tallies.find((x) => (x.a === a && x.b === b) || (x.a === b && x.b === a));
      const wdl = !t ? { wins: 0, draws: 0, losses: 0 } : t.a === a ? t : { wins: t.losses, draws: t.draws, losses: t.wins };
      pairs.push({ a, b, ...pairStats(wdl), speed: speedRatio(tiedTimePairs(rows, a, b, time)) });
    }
  }
  const crossTable = match.bots.length >= 3 ? buildCrossTable(tallies, match.bots) : undefined;
  const test = sprt && match.bots.length === 2 ? sprtOf(sprt, match.bots, rows, tie) : undefined;
  // A decided match lists only what it played, as a finished one does, while it proves the optima it owes.
  const phase = match.status === 'finished' ? 'finished' : test?.decision ? 'decided' : 'playing';
  return {
    match: {
      id: match.id,
      status: match.status,
      seed: match.seed,
      generatorVersion: match.generatorVersion,
      bots: match.bots,
      puzzleClasses: [...new Set(scrambles.map((s) => s.puzzleClass))],
      scrambles: scrambles.length,
      played: new Set(rows.map((r) => r.scrambleId)).size,
      createdAt: match.createdAt,
      scoreBy: tie.scoreBy ?? 'wall',
    },
    scrambles: buildScrambleReport(match.bots, scrambles, rows, tie, phase),
    results,
    summary: {
      bots,
      pairs,
      ...(crossTable ? { crossTable } : {}),
      ...(test ? { sprt: test } : {}),
    },
  };
}

/**
 * The SPRT over the answered prefix. Its scramble order comes from the results: scrambles 0, 1, 2, … as
 * long as each has a result, so a scramble nobody answered yet ends the prefix as it would in the full list.
 */
function sprtOf(params: SprtParams, bots: readonly string[], rows: readonly ResultSummary[], tie: TieBreak): SprtProgress {
  return sprtProgress(params, bots[0], bots[1], answeredOrder(rows), rows, tie);
}

/** The SPRT of a stored match with its LLR after every counted scramble (the match page's chart). */
export function sprtTraceOf(params: SprtParams, bots: readonly string[], rows: readonly ResultSummary[], tie: TieBreak): SprtTrace {
  return sprtTrace(params, bots[0], bots[1], answeredOrder(rows), rows, tie);
}

/** Milliseconds as reports print them: to the hundredth. */
export function roundMs(ms: number): number {
  return round(ms);
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
