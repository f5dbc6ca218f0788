/**
 * The names of the built-in puzzle kinds and the JSON shape of each kind's state: the public vocabulary of
 * the protocol (PROTOCOL.md), which bots receive through the SDK and the database stores. This is the one
 * file outside src/puzzles that names a kind (test/unit/kind-literals.test.ts holds that): everything a
 * kind *does* lives in its folder src/puzzles/<kind>/, and the registry there is typed against
 * {@link PUZZLE_KINDS}, so a kind named here without a folder (or the reverse) does not compile.
 */

/** The built-in puzzle kinds, in registry order. The protocol schema and the CLI derive from this list. */
export const PUZZLE_KINDS = ['sliding', 'hanoi', 'swaps', 'warehouse'] as const;

/** One of {@link PUZZLE_KINDS}. */
export type PuzzleKind = (typeof PUZZLE_KINDS)[number];

/** Sliding tile puzzle: R×C tiles row-major, 0 = blank; goal is 1..R·C−1 then the blank. */
export interface SlidingState {
  readonly kind: 'sliding';
  readonly rows: number;
  readonly cols: number;
  readonly tiles: readonly number[];
}

/** Towers of Hanoi: one peg letter per disc, smallest disc first (seed 002's notation, "BCC"). */
export interface HanoiState {
  readonly kind: 'hanoi';
  readonly pegs: 3;
  readonly start: string;
  readonly goal: string;
}

/** Swap puzzle: pieces 1..R·C row-major; goal ascending; a move exchanges two pieces named by number. */
export interface SwapsState {
  readonly kind: 'swaps';
  readonly rows: number;
  readonly cols: number;
  readonly tiles: readonly number[];
}

/** Warehouse (thesis ch. 4): n×n cells row-major, n a perfect square, 0 = empty corridor/free cell. */
export interface WarehouseState {
  readonly kind: 'warehouse';
  readonly size: number;
  readonly cells: readonly number[];
}

/** Any puzzle state, in the canonical JSON used by the protocol, scramble files and the database. */
export type PuzzleState = SlidingState | HanoiState | SwapsState | WarehouseState;
