/**
 * The per-scramble part of a match report: for each scramble, what is known of its optimum (exact, or a
 * bound and why), who won it and what decided it, and for each result whether a bot's claim of an optimal
 * answer stands against the exact optimum. Pure: built from stored records.
 */
import { scrambleNumber } from '../../core/scramble-number.ts';
import type { Bound } from '../../core/types.ts';
import type { ResultSummary, ScrambleRecord } from '../../store/types.ts';
import { compareResults, type Contender, type TieBreak } from '../../stats/outcome.ts';
import { ORACLE_PENDING } from '../refine-bounds.ts';

/** What decided a scramble: a verdict (solved against unsolved), fewer moves, or time where moves tied. */
export type DecidedBy = 'verdict' | 'moves' | 'time';

/** One scramble of a match. */
export interface ReportScramble {
  /** The scramble's number, from 1, as every surface shows it (the stored index + 1, see core/scramble-number.ts). */
  readonly scramble: number;
  readonly puzzleClass: string;
  /** Exact optimum when the referee knows it. */
  readonly optimal?: number;
  readonly lowerBound: number;
  /** Why only a bound is known where an exact optimum was sought (oracle pending, budget spent, no tables). */
  readonly boundNote?: string;
  /**
   * The bot whose result beats every other bot's on this scramble; null when none does (a draw at the top);
   * absent while some bot has no result yet, or in a one-bot match.
   */
  readonly winner?: string | null;
  /** What decided the win, when there is a winner: the closest contest against the winner. */
  readonly decidedBy?: DecidedBy;
}

/** How one comparison was decided (given it was not a draw). */
function decision(a: Contender, b: Contender): DecidedBy {
  if ((a.verdict === 'solved') !== (b.verdict === 'solved')) return 'verdict';
  return a.moveCount !== b.moveCount ? 'moves' : 'time';
}

/** Ranks decisions from the clearest (verdict) to the narrowest (time). */
const NARROWNESS: Readonly<Record<DecidedBy, number>> = { verdict: 0, moves: 1, time: 2 };

/**
 * The winner of one scramble among `results` (one per bot), with what decided it: the narrowest of the
 * winner's wins, so "time" means at least one opponent lost only on time. `tie` as in compareResults.
 */
export function scrambleWinner(results: readonly (Contender & { readonly bot: string })[], tie: TieBreak = {}): { winner: string | null; decidedBy?: DecidedBy } {
  for (const w of results) {
    let narrowest: DecidedBy | undefined;
    let beatsAll = true;
    for (const o of results) {
      if (o === w) continue;
      if (compareResults(w, o, tie) !== 1) {
        beatsAll = false;
        break;
      }
      const d = decision(w, o);
      if (narrowest === undefined || NARROWNESS[d] > NARROWNESS[narrowest]) narrowest = d;
    }
    if (beatsAll && narrowest !== undefined) return { winner: w.bot, decidedBy: narrowest };
  }
  return { winner: null };
}

/** What the note of a bound says once its match has finished without the oracle's answer. */
export const ORACLE_STOPPED = 'exact search stopped: the match finished first';

/** What the note of a bound says while the oracle has yet to answer (a running match, or one decided). */
export const OPTIMUM_PENDING = 'optimum pending';

/**
 * Where a match is, for its scramble rows: still `playing`, `decided` (its SPRT needs no more scrambles, and
 * it is proving the optima of those it played), or `finished`.
 */
export type ReportPhase = 'playing' | 'decided' | 'finished';

/**
 * Per-scramble rows of a match, in index order. A decided or finished match lists only the scrambles it
 * played (an SPRT that decided early leaves the rest unplayed, and they are no part of its result). A bound
 * still waiting for the oracle reads "optimum pending" while the match runs, and says the oracle was stopped
 * once it has finished: nothing is pending in a finished match.
 */
export function buildScrambleReport(
  bots: readonly string[],
  scrambles: readonly ScrambleRecord[],
  rows: readonly ResultSummary[],
  tie: TieBreak = {},
  phase: ReportPhase = 'playing',
): ReportScramble[] {
  const byScramble = new Map<number, ResultSummary[]>();
  for (const r of rows) {
    const list = byScramble.get(r.scrambleId);
    if (list) list.push(r);
    else byScramble.set(r.scrambleId, [r]);
  }
  return [...scrambles]
    .sort((a, b) => a.index - b.index)
    .filter((s) => phase === 'playing' || byScramble.has(s.id))
    .map((s) => {
      const got = byScramble.get(s.id) ?? [];
      const note = s.boundNote !== ORACLE_PENDING ? s.boundNote : phase === 'finished' ? ORACLE_STOPPED : OPTIMUM_PENDING;
      const complete = bots.length > 1 && bots.every((b) => got.some((r) => r.bot === b));
      const w = complete ? scrambleWinner(got.filter((r) => bots.includes(r.bot)), tie) : undefined;
      return {
        scramble: scrambleNumber(s.index),
        puzzleClass: s.puzzleClass,
        ...(s.bound.optimal !== undefined ? { optimal: s.bound.optimal } : {}),
        lowerBound: s.bound.lowerBound,
        ...(note !== undefined ? { boundNote: note } : {}),
        ...(w ? { winner: w.winner, ...(w.decidedBy ? { decidedBy: w.decidedBy } : {}) } : {}),
      };
    });
}

/**
 * True when a bot claimed its answer optimal and the referee's exact optimum says otherwise (a solved
 * answer longer than the optimum). Unknown optimum or no claim: false.
 */
export function claimContradicted(r: { readonly verdict: string; readonly moveCount: number; readonly claimedOptimal?: boolean }, bound: Bound): boolean {
  return r.claimedOptimal === true && r.verdict === 'solved' && bound.optimal !== undefined && r.moveCount > bound.optimal;
}
