import type { z } from 'zod';
import type { Rng } from '../core/rng.ts';
import type {
  Bound,
  PuzzleState,
  Rejection,
  ReplayOutcome,
  Result,
  ScrambleSpec,
  WireMoves,
} from '../core/types.ts';
import type { RenderOptions } from './render-grid.ts';
import type { MoveForm } from './move-form.ts';
import type { Scene } from './scene.ts';

/**
 * Incremental move validator: the referee feeds it the chunks of a solution as they arrive, so a
 * multi-million-move answer is checked in one pass without being joined. Works on typed arrays in place.
 */
export interface Replayer<S extends { readonly kind: string } = PuzzleState> {
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

/** The size options a scramble spec is read from (the CLI's --size, --rows, --cols, --discs, --random-goal). */
export type SizeOption = 'size' | 'rows' | 'cols' | 'discs' | 'randomGoal';

/**
 * One puzzle kind. Every kind is a plain object implementing this interface, in its folder
 * `src/puzzles/<kind>/index.ts`, registered in `src/puzzles/index.ts`; no other layer switches on a kind's
 * name, it asks the kind's Puzzle. All methods are pure and deterministic (randomness only through the
 * given Rng); none throws on bad input: bad input is a returned {@link Rejection}.
 */
export interface Puzzle<S extends { readonly kind: string } = PuzzleState> {
  readonly kind: S['kind'];
  /**
   * The structural shape of a state on the wire (field names and JSON types, no ranges): what the SDK
   * checks a `solve` message against. {@link parse} is the deep check.
   */
  readonly wireShape: z.ZodObject & z.ZodType<S>;
  /** Parse and validate a state from its canonical JSON (already JSON.parse'd). */
  parse(json: unknown): Result<S>;
  /**
   * What each size option means for this kind (help text), for the options it reads; a scramble spec is
   * the kind plus these options, checked by {@link normalizeSpec}.
   */
  readonly sizeOptions: Readonly<Partial<Record<SizeOption, string>>>;
  /** The spec used when no size option is given. */
  readonly defaultSpec: ScrambleSpec<S['kind']>;
  /** Validate a scramble spec (sizes in range) and fill in defaults; e.g. `{size:4}` → rows 4, cols 4. */
  normalizeSpec(spec: ScrambleSpec<string>): Result<ScrambleSpec<S['kind']>>;
  /**
   * What a compliance run (`arena bot check`) sends a bot declaring this kind: scrambles of the tiny
   * `specs`, then the `fixed` states every bot of the kind should take.
   */
  readonly compliance: { readonly specs: readonly ScrambleSpec<S['kind']>[]; readonly fixed: readonly S[] };
  /** The measure a capability's `maxSize` bounds: what the size flag counts (a side, discs, n). */
  sizeMeasure(state: S): number;
  /** Where protocol 1 bounded another measure (cells, for sliding and swaps): that one (capability-size.ts). */
  readonly cellMeasure?: (state: S) => number;
  /** How this kind's moves travel (chunks, the empty answer) and are stored. */
  readonly moves: MoveForm;
  /** The solved state for a (normalized) spec. */
  goal(spec: ScrambleSpec<string>): S;
  /** True when `state` is at its goal. */
  isSolved(state: S): boolean;
  /** Uniformly random solvable state, never fewer than 2 moves from the goal. */
  scramble(spec: ScrambleSpec<string>, rng: Rng): S;
  /** Random walk of exactly k legal moves from the goal (never immediately undoing the previous move). */
  walk(spec: ScrambleSpec<string>, k: number, rng: Rng): S;
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
  /**
   * The scramble spec of the class `state` belongs to: {@link scramble} of it draws other states of the same
   * {@link className} (the referee's untimed warm-up solves one such throwaway state before timed ones).
   */
  specOf(state: S): ScrambleSpec<S['kind']>;
  /** The puzzle class for ratings, e.g. "sliding 4x4", "hanoi 12" (goal a tower on one peg), "hanoi 12 random-goal", "swaps 10x10", "warehouse 16". */
  className(state: S): string;
  /** A readable, multi-line picture of the state for terminals. */
  describe(state: S): string;
  /**
   * A terminal picture of a position for replays: lines of equal width within the size limits, what changed
   * since `previous` marked.
   */
  render(state: S, opts?: RenderOptions<S>): string[];
  /** A neutral picture of a position (a grid of toned cells, or pegs of discs) for drawing programs. */
  scene(state: S): Scene;
}
