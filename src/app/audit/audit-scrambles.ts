/**
 * The scrambles of a match for `arena audit`: regenerated from the match's seed and generator version and
 * compared with what is stored (a match played from a file has no seed to regenerate from: its states are
 * checked for being valid puzzles of their stored class), and the stored bound checked against the one the
 * puzzle computes and against the answers that solved it.
 */
import { GENERATOR_VERSION } from '../../core/rng.ts';
import type { PuzzleState } from '../../core/types.ts';
import { parseState, puzzleOf } from '../../puzzles/index.ts';
import type { MatchConfig } from '../../referee/match-config.ts';
import { scrambleStream } from '../../referee/scrambles/scrambles.ts';
import type { MatchRecord, ResultSummary, ScrambleRecord } from '../../store/types.ts';

/** How a match's scrambles were checked. */
export type ScrambleSource = 'regenerated' | 'file' | 'other-generator' | 'unknown';

/** The states a match's seed makes, asked for in increasing index order. */
export class Regenerator {
  readonly source: ScrambleSource;
  /** Why the states are not regenerated, for the notes. */
  readonly why?: string;
  private next: (() => PuzzleState) | undefined;
  private at = 0;

  constructor(match: MatchRecord, config: MatchConfig | undefined) {
    if (!config) {
      this.source = 'unknown';
      this.why = 'its configuration cannot be read, so its scrambles cannot be regenerated';
    } else if (!config.spec) {
      this.source = 'file';
      this.why = `its scrambles came from a file (${config.scrambleFile ?? 'unnamed'}) and have no seed to be regenerated from: each was checked to be a valid state of its class, not to be the file's`;
    } else if (match.generatorVersion !== GENERATOR_VERSION) {
      this.source = 'other-generator';
      this.why = `its scrambles were made by generator ${match.generatorVersion}; this arena (${GENERATOR_VERSION}) cannot regenerate them`;
    } else {
      const s = scrambleStream(config.spec, config.seed, config.walk);
      this.source = s.ok ? 'regenerated' : 'unknown';
      if (s.ok) this.next = s.value;
      else this.why = `its spec cannot be generated: ${s.reason}`;
    }
  }

  /** The state scramble `index` should have, when regenerated (indexes must come in increasing order). */
  expected(index: number): PuzzleState | undefined {
    if (!this.next || index < this.at) return undefined;
    while (this.at < index) {
      this.next();
      this.at++;
    }
    this.at++;
    return this.next();
  }
}

/** What is wrong with one stored scramble (its state, class and bound), each a line. */
export function scrambleProblems(s: ScrambleRecord, expected: PuzzleState | undefined): string[] {
  const parsed = parseState(s.state);
  if (!parsed.ok) return [`the stored state is not a valid puzzle: ${parsed.reason}`];
  const out: string[] = [];
  if (expected && JSON.stringify(expected) !== JSON.stringify(s.state)) out.push("the stored state is not the one the match's seed generates");
  const p = puzzleOf(s.state);
  const cls = p.className(s.state);
  if (cls !== s.puzzleClass) out.push(`recorded class "${s.puzzleClass}", but the state is ${cls}`);
  const cheap = p.bound(s.state);
  const b = s.bound;
  if (b.lowerBound < cheap.lowerBound) out.push(`recorded lower bound ${b.lowerBound} is below the puzzle's own bound ${cheap.lowerBound}`);
  if (cheap.optimal !== undefined && b.optimal !== undefined && b.optimal !== cheap.optimal) out.push(`recorded optimum ${b.optimal}, but the puzzle computes ${cheap.optimal}`);
  if (b.optimal !== undefined && b.optimal < cheap.lowerBound) out.push(`recorded optimum ${b.optimal} is below the puzzle's own bound ${cheap.lowerBound}`);
  return out;
}

/** A solved answer shorter than the recorded optimum (or bound) proves the bound or the count wrong. */
export function beatsBound(r: ResultSummary, s: ScrambleRecord): string | undefined {
  if (r.verdict !== 'solved') return undefined;
  const best = s.bound.optimal ?? s.bound.lowerBound;
  if (r.moveCount >= best) return undefined;
  const what = s.bound.optimal !== undefined ? 'optimum' : 'lower bound';
  return `solved in ${r.moveCount} moves, fewer than the recorded ${what} ${best}: the bound or the answer is wrong`;
}
