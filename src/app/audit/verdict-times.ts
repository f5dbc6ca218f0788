/**
 * A verdict that its own stored time and the match's time limit contradict, found without the key: the
 * referee answers `timeout` when its timer at the limit fires and accepts an answer only before it, so a
 * `solved` far above the limit or a `timeout` far below it was not written by the referee. The slack absorbs
 * a busy event loop (an answer read in the same turn as the timer became due) and, for an answer, the time
 * the referee spends validating it before it stops the clock (the timer cannot fire during that work: a
 * 16.7 M-move answer may take seconds); a rewrite that stays inside it is left to the seals.
 */
import type { ResultSummary } from '../../store/types.ts';

/** How far past the limit an accepted answer may have been timed: 10 % of the limit and 250 ms. */
export function lateSlackMs(limitMs: number): number {
  return Math.ceil(limitMs * 0.1) + 250;
}

/**
 * A timeout the referee gives before the wall-clock limit, with the reason it stores: the CPU-time
 * backstop (a bot computing on many threads), or a failed warm-up timed by its own limit.
 */
const EARLY_TIMEOUT = /CPU-time limit|warm-up|preparing|prepare/;

/** Validation time allowed per move of an answer: 1 µs, many times what the referee needs. */
const VALIDATION_MS_PER_MOVE = 0.001;

/** What is wrong with a result's verdict given its time and the match's limit, or nothing. */
export function verdictTimeProblem(r: Pick<ResultSummary, 'verdict' | 'wallMs' | 'error' | 'moveCount'>, limitMs: number | undefined): string | undefined {
  if (limitMs === undefined || !Number.isFinite(r.wallMs)) return undefined;
  const validation = Math.max(0, r.moveCount) * VALIDATION_MS_PER_MOVE;
  if ((r.verdict === 'solved' || r.verdict === 'invalid') && r.wallMs > limitMs + lateSlackMs(limitMs) + validation) {
    return `${r.verdict} in ${Math.round(r.wallMs)} ms, above the match's time limit of ${limitMs} ms: the referee accepts no answer after the limit, so the verdict or its time was changed`;
  }
  if (r.verdict === 'timeout' && r.wallMs < limitMs - lateSlackMs(limitMs) && !EARLY_TIMEOUT.test(r.error ?? '')) {
    return `a timeout after ${Math.round(r.wallMs)} ms, below the match's time limit of ${limitMs} ms: the verdict or its time was changed`;
  }
  return undefined;
}
