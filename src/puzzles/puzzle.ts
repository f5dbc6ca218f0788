import type { Rng } from '../core/rng.ts';
import type {
  Bound,
  PuzzleKind,
  PuzzleState,
  Rejection,
  ReplayOutcome,
  Result,
  ScrambleSpec,
  WireMoves,
} from '../core/types.ts';
import type { RenderOptions } from './render-grid.ts';

/**
 * Incremental move validator: the referee feeds it the chunks of a solution as they arrive, so a
 * multi-million-move answer is checked in one pass without being joined. Works on typed arrays in place.
 */
export interface Replayer<S extends PuzzleState = PuzzleState> {
  /**
   * Applies every move in `chunk`. Returns null when all were legal, else a rejection whose `index` is the
   * 0-based index of the first illegal move counted from the start of the whole solution. After a rejection
   * the replayer is dead and further pushes return the same rejection.
   */
  push(chunk: WireMoves): (Rejection & { readonly index: number }) | null;
  /** Number of moves applied legally so far. */
  readonly count: number;
  /** True when the current position is the goal. */
  isSolved(): boolean;
  /** The current position (after the moves applied legally so far) as a canonical state, for replays. */
  state(): S;
  /** Final outcome: solved, or invalid (first illegal move, or "not solved after the last move"). */
  finish(): ReplayOutcome;
}

/**
 * One puzzle kind. Every kind is a plain object implementing this interface, registered in `index.ts`.
 * All methods are pure and deterministic (randomness only through the given Rng); none throws on bad input:
 * bad input is a returned {@link Rejection}.
 */
export interface Puzzle<S extends PuzzleState = PuzzleState> {
  readonly kind: PuzzleKind;
  /** Parse and validate a state from its canonical JSON (already JSON.parse'd). */
  parse(json: unknown): Result<S>;
  /** Validate a scramble spec (sizes in range) and fill in defaults; e.g. `{size:4}` → rows 4, cols 4. */
  normalizeSpec(spec: ScrambleSpec): Result<ScrambleSpec>;
  /** The solved state for a (normalized) spec. */
  goal(spec: ScrambleSpec): S;
  /** True when `state` is at its goal. */
  isSolved(state: S): boolean;
  /** Uniformly random solvable state, never fewer than 2 moves from the goal. */
  scramble(spec: ScrambleSpec, rng: Rng): S;
  /** Random walk of exactly k legal moves from the goal (never immediately undoing the previous move). */
  walk(spec: ScrambleSpec, k: number, rng: Rng): S;
  /** Parse moves from user text (a file or a CLI string) into the wire form. */
  parseMoves(text: string): Result<WireMoves>;
  /** Format wire moves as the notation text (inverse of parseMoves). */
  formatMoves(moves: WireMoves): string;
  /** A fresh incremental validator starting at `start`. */
  replayer(start: S): Replayer<S>;
  /** Replays a whole solution (convenience over {@link replayer}). */
  replay(start: S, moves: WireMoves): ReplayOutcome;
  /** Exact optimum or admissible lower bound the referee can compute cheaply. */
  bound(state: S): Bound;
  /** The puzzle class for ratings, e.g. "sliding 4x4", "hanoi 12", "swaps 10x10", "warehouse 16". */
  className(state: S): string;
  /** A readable, multi-line picture of the state for terminals. */
  describe(state: S): string;
  /**
   * A terminal picture of a position for replays: lines of equal width within the size limits, what changed
   * since `previous` marked.
   */
  render(state: S, opts?: RenderOptions<S>): string[];
}
