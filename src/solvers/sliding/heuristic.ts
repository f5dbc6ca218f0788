/**
 * The contract between the IDA* engine and a heuristic: the engine slides one tile per step and asks for the
 * new estimate, so a heuristic only recomputes what that one tile changes, and keeps its own undo stack.
 */
export interface IncrementalHeuristic {
  /** Starts over from `tiles` (cell → tile, 0 = blank); returns h. Must be admissible for optimal search. */
  reset(tiles: Uint8Array): number;
  /**
   * `tile` just slid from cell `from` to cell `to` (`tiles` is already updated). Saves what `undo(depth)`
   * needs under `depth`, then returns the new h. With `limit`, a heuristic may stop early once it knows h
   * exceeds it, and return any admissible value above `limit` instead (the search only cuts such a child off
   * and takes the smallest such f as its next bound, which stays at or below the true one).
   */
  move(tiles: Uint8Array, tile: number, from: number, to: number, depth: number, limit?: number): number;
  /** Reverts the move saved under `depth` (the engine has already slid the tile back). */
  undo(depth: number): void;
  /** A short name for notes and logs, e.g. "manhattan+lc". */
  readonly name: string;
}
