/**
 * Replaying one stored answer for `arena audit`: its moves stream from the store a piece at a time through
 * the puzzle's own validator and the seal's digest, so a 16.7 M-move answer is never joined; then what the
 * moves do today is compared with the verdict, move count and error index the referee recorded, by the
 * rules the referee decided them by (src/referee/solve-one.ts).
 */
import type { PuzzleState, ReplayOutcome, WireMoves } from '../../core/types.ts';
import { puzzleOf } from '../../puzzles/index.ts';
import { MovesDigest } from '../../store/moves-digest.ts';
import type { ResultSummary } from '../../store/types.ts';

/** What the stored moves do. */
export interface Replayed {
  /** Moves applied legally (up to the first illegal one). */
  readonly legal: number;
  /** The validator's outcome over the whole answer. */
  readonly outcome: ReplayOutcome;
  /** True when the first illegal move was found while the moves streamed (not at their end). */
  readonly illegalMove: boolean;
  /** SHA-256 of the stored moves, as a seal covers them. */
  readonly movesSha256: string;
}

/** Replays `moves` (the pieces of one stored answer) from `state`. */
export async function replayStored(state: PuzzleState, moves: AsyncIterable<WireMoves>): Promise<Replayed> {
  const replayer = puzzleOf(state).replayer(state);
  const digest = new MovesDigest();
  let illegalMove = false;
  let pieces = 0;
  for await (const piece of moves) {
    pieces++;
    digest.push(piece);
    // After the first illegal move the validator is dead; the rest is still digested for the seal.
    if (!illegalMove && replayer.push(piece)) illegalMove = true;
  }
  if (pieces === 0) digest.push(puzzleOf(state).moves.empty);
  const legal = replayer.count;
  return { legal, outcome: replayer.finish(), illegalMove, movesSha256: digest.hex() };
}

/** Verdicts the moves alone cannot decide (the bot stopped, or was stopped, before a final answer). */
const UNDECIDED_BY_MOVES = new Set(['timeout', 'crash', 'protocol', 'unsupported', 'gave-up', 'memory']);

/**
 * What differs between the stored result and what its stored moves do, in one line, or undefined when they
 * agree. `maxMoves` is the match's limit (undefined when its configuration cannot be read).
 */
export function replayMismatch(stored: ResultSummary, got: Replayed, maxMoves: number | undefined): string | undefined {
  const recorded = `recorded ${stored.verdict} with ${stored.moveCount} moves${stored.errorIndex !== undefined ? ` (error at move ${stored.errorIndex})` : ''}`;
  const o = got.outcome;
  const today = got.illegalMove
    ? `the stored moves have an illegal move at ${o.verdict === 'invalid' ? o.index : got.legal} (${o.verdict === 'invalid' ? o.reason : ''})`
    : o.verdict === 'solved'
      ? `the stored moves solve it in ${got.legal}`
      : `the stored moves are ${got.legal} legal moves that do not solve it (${o.reason})`;
  const differs = `${recorded}, but ${today}`;
  if (got.legal !== stored.moveCount) return differs;
  if (got.illegalMove) {
    return stored.verdict === 'invalid' && o.verdict === 'invalid' && stored.errorIndex === o.index ? undefined : differs;
  }
  if (maxMoves !== undefined && got.legal > maxMoves) {
    return stored.verdict === 'invalid' && stored.errorIndex === maxMoves ? undefined : `${differs}, more than the match's limit of ${maxMoves}`;
  }
  if (UNDECIDED_BY_MOVES.has(stored.verdict)) return undefined;
  if (stored.verdict === 'solved') return o.verdict === 'solved' ? undefined : differs;
  if (stored.verdict === 'invalid') return o.verdict === 'invalid' && stored.errorIndex === o.index ? undefined : differs;
  return `${recorded}: not a verdict this arena records`;
}
