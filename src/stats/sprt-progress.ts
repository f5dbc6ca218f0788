/**
 * Where a match's SPRT stands, computed from what the store holds. The test reads scrambles in index order and
 * stops at the first one either bot has not answered yet, so its decision does not depend on the order in
 * which concurrent workers finished, on how often the match was killed and resumed, or on results recorded
 * after it decided: each scramble of the prefix counts exactly once. Pure.
 */
import { compareResults, type TieBreak } from './outcome.ts';
import type { ScoredResult, Wdl } from './match-stats.ts';
import { sprtBounds, sprtLlr, type SprtParams } from './sprt.ts';

/** The SPRT of bot `a` against bot `b` over the answered prefix of the scrambles. */
export interface SprtProgress {
  readonly params: SprtParams;
  readonly a: string;
  readonly b: string;
  /** Scrambles counted: the decision point once decided, else the answered prefix. */
  readonly scrambles: number;
  /** W-D-L of `a` over those scrambles. */
  readonly wdl: Wdl;
  readonly llr: number;
  readonly lower: number;
  readonly upper: number;
  /** 'H1' (a is better by elo1), 'H0' (not better than elo0), or null while undecided. */
  readonly decision: 'H0' | 'H1' | null;
}

/**
 * Plays the test along the scrambles in `order` (ids in index order) on the results in `rows`; stops at the
 * first bound crossed or the first scramble without both results. `tie` is the match's rule for equal moves.
 */
export function sprtProgress(...args: SprtArgs): SprtProgress {
  return walk(undefined, ...args);
}

/** What the test reads: its parameters, the two bots, the scramble ids in index order, the results, the tie rule. */
type SprtArgs = [params: SprtParams, a: string, b: string, order: readonly number[], rows: readonly ScoredResult[], tie?: TieBreak];

/** The LLR after each counted scramble, for a chart of the test: the same walk as {@link sprtProgress}. */
export interface SprtTrace extends SprtProgress {
  /** `llr[k]` after k + 1 scrambles; its last value is `llr` (empty before the first scramble counts). */
  readonly trace: readonly number[];
}

/** {@link sprtProgress} with the LLR after every scramble it counted, up to and including the decision. */
export function sprtTrace(...args: SprtArgs): SprtTrace {
  const trace: number[] = [];
  return { ...walk((llr) => trace.push(llr), ...args), trace };
}

/** The walk of {@link sprtProgress}; `step` hears the LLR after each counted scramble. */
function walk(step: ((llr: number) => void) | undefined, ...[params, a, b, order, rows, tie = {}]: SprtArgs): SprtProgress {
  const ofA = new Map<number, ScoredResult>();
  const ofB = new Map<number, ScoredResult>();
  for (const r of rows) {
    if (r.bot === a) ofA.set(r.scrambleId, r);
    else if (r.bot === b) ofB.set(r.scrambleId, r);
  }
  const { lower, upper } = sprtBounds(params.alpha, params.beta);
  let wins = 0;
  let draws = 0;
  let losses = 0;
  let llr = 0;
  let scrambles = 0;
  let decision: SprtProgress['decision'] = null;
  for (const id of order) {
    const x = ofA.get(id);
    const y = ofB.get(id);
    if (!x || !y) break;
    const o = compareResults(x, y, tie);
    if (o === 1) wins++;
    else if (o === 0) draws++;
    else losses++;
    scrambles++;
    llr = sprtLlr({ wins, draws, losses }, params);
    step?.(llr);
    if (llr >= upper || llr <= lower) {
      decision = llr >= upper ? 'H1' : 'H0';
      break;
    }
  }
  return { params, a, b, scrambles, wdl: { wins, draws, losses }, llr, lower, upper, decision };
}
