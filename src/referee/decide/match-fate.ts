/**
 * The decision rules of a match, one place for both job sources (a local match that follows its results
 * one by one, and the queue that workers on many machines report to): when a match needs no more plays,
 * when it is finished, and which exact optima it still owes once it needs no more plays.
 */
import type { ResultSummary, ScrambleRecord } from '../../store/types.ts';
import type { SprtProgress } from '../../stats/sprt-progress.ts';
import { ORACLE_PENDING } from '../refine-bounds.ts';

/**
 * Where a match stands: `open` while plays are still wanted; `decided` once its SPRT has accepted a
 * hypothesis (the plays not yet handed out are withdrawn, those in flight finish and are kept, uncounted);
 * `complete` once every play has its result.
 */
export type MatchFate = 'open' | 'decided' | 'complete';

/** The fate of a match from its SPRT (when it has one) and how many of its plays have a result. */
export function fateOf(sprt: Pick<SprtProgress, 'decision'> | undefined, done: number, total: number): MatchFate {
  if (sprt?.decision) return 'decided';
  return done >= total ? 'complete' : 'open';
}

/**
 * The scrambles whose exact optimum a match still owes: marked for the oracle and played by at least one
 * bot. Once a match is decided these are proved before it is finished (its report must say whether each
 * answer was optimal); a scramble nobody played owes nothing, as it is no part of the result.
 */
export function optimaOwed(scrambles: readonly ScrambleRecord[], results: readonly Pick<ResultSummary, 'scrambleId'>[]): ScrambleRecord[] {
  const played = new Set(results.map((r) => r.scrambleId));
  return scrambles.filter((s) => s.boundNote === ORACLE_PENDING && played.has(s.id));
}

/** Whether a scramble of a decided match is worth proving: only a played one (see {@link optimaOwed}). */
export function owesOptimum(fate: MatchFate, scramble: Pick<ScrambleRecord, 'id'>, played: ReadonlySet<number>): boolean {
  return fate !== 'decided' || played.has(scramble.id);
}
