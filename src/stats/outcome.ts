/**
 * Who won one scramble between two bots. Pure: no clock, no store.
 */
import type { Verdict } from '../core/verdict.ts';

/** The parts of a result that decide a head-to-head scramble. */
export interface Contender {
  readonly verdict: Verdict;
  readonly moveCount: number;
  readonly wallMs: number;
  /** CPU time of the bot's processes over the solve, where measured (see ResultRecord.cpuMs). */
  readonly cpuMs?: number;
}

/** Which time breaks a tie on moves: the referee's wall clock, or the CPU time of the bot's processes. */
export const SCORE_BY = ['wall', 'cpu'] as const;
export type ScoreBy = (typeof SCORE_BY)[number];

/** How a match decides equal move counts; every field absent = the defaults (wall time, default margin). */
export interface TieBreak {
  /** A time difference must exceed this to decide; absent = {@link defaultMarginMs} of the two times. */
  readonly marginMs?: number;
  readonly scoreBy?: ScoreBy;
}

/**
 * The times compared for two results under `scoreBy`. CPU time only when both have it: a pair where one was
 * not measured (a bot that died, a result recorded before CPU time was) falls back to wall time for both,
 * so two different clocks are never compared.
 */
export function tieTimes(a: Contender, b: Contender, scoreBy: ScoreBy = 'wall'): [number, number] {
  if (scoreBy === 'cpu' && a.cpuMs !== undefined && b.cpuMs !== undefined) return [a.cpuMs, b.cpuMs];
  return [a.wallMs, b.wallMs];
}

/** One scramble from the first bot's point of view: 1 win, 0 draw, −1 loss. */
export type Outcome = 1 | 0 | -1;

/** Smallest time margin, ms. Below this, differences are timer resolution, scheduling and socket noise. */
export const MIN_MARGIN_MS = 5;

/** Relative time margin: a share of the slower wall time. */
export const RELATIVE_MARGIN = 0.1;

/**
 * The default tie margin for two wall times: 10% of the slower time, at least 5 ms.
 *
 * Why: wall time includes process scheduling, GC pauses and a localhost WebSocket round trip. On a shared
 * machine run-to-run jitter is a few ms in absolute terms for short solves and grows roughly in proportion to
 * the run time for long ones (CPU contention, GC). A margin that is both absolute and relative means a bot
 * only wins on speed when it is clearly faster, not because of noise that would flip on a rerun.
 */
export function defaultMarginMs(aMs: number, bMs: number): number {
  return Math.max(MIN_MARGIN_MS, RELATIVE_MARGIN * Math.max(aMs, bMs));
}

/**
 * Compares two bots' results on the same scramble, from `a`'s point of view. This is the one place a winner
 * is decided; every report, tally and SPRT calls it.
 * - `solved` beats any other verdict; two unsolved results draw, whatever their verdicts.
 * - Between two solves, fewer moves win.
 * - Equal moves: the faster wins when the times ({@link tieTimes}: wall by default, CPU with
 *   `scoreBy: 'cpu'`) differ by more than the margin, else a draw.
 *
 * The margin defaults to {@link defaultMarginMs} of the two times compared; `marginMs: 0` lets any time
 * difference decide, `Infinity` ignores time entirely.
 */
export function compareResults(a: Contender, b: Contender, tie: TieBreak = {}): Outcome {
  const aSolved = a.verdict === 'solved';
  const bSolved = b.verdict === 'solved';
  if (aSolved !== bSolved) return aSolved ? 1 : -1;
  if (!aSolved) return 0;
  if (a.moveCount !== b.moveCount) return a.moveCount < b.moveCount ? 1 : -1;
  const [aMs, bMs] = tieTimes(a, b, tie.scoreBy);
  const marginMs = tie.marginMs ?? defaultMarginMs(aMs, bMs);
  const diff = bMs - aMs;
  // `>` (not `>=`) so a margin of 0 still draws on identical times; NaN compares false and draws.
  if (diff > marginMs) return 1;
  if (-diff > marginMs) return -1;
  return 0;
}
