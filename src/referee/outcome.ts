/**
 * Who won one scramble between two bots. Pure: no clock, no store.
 */
import type { Verdict } from '../core/verdict.ts';

/** The parts of a result that decide a head-to-head scramble. */
export interface Contender {
  readonly verdict: Verdict;
  readonly moveCount: number;
  readonly wallMs: number;
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
 * Compares two bots' results on the same scramble, from `a`'s point of view.
 * - `solved` beats any other verdict; two unsolved results draw, whatever their verdicts.
 * - Between two solves, fewer moves win.
 * - Equal moves: the faster wins when the wall times differ by more than `marginMs`, else a draw.
 *
 * `marginMs` defaults to {@link defaultMarginMs} of the two times; pass 0 to let any time difference decide,
 * or `Infinity` to ignore time entirely.
 */
export function compareResults(
  a: Contender,
  b: Contender,
  marginMs: number = defaultMarginMs(a.wallMs, b.wallMs),
): Outcome {
  const aSolved = a.verdict === 'solved';
  const bSolved = b.verdict === 'solved';
  if (aSolved !== bSolved) return aSolved ? 1 : -1;
  if (!aSolved) return 0;
  if (a.moveCount !== b.moveCount) return a.moveCount < b.moveCount ? 1 : -1;
  const diff = b.wallMs - a.wallMs;
  // `>` (not `>=`) so a margin of 0 still draws on identical times; NaN compares false and draws.
  if (diff > marginMs) return 1;
  if (-diff > marginMs) return -1;
  return 0;
}
