/**
 * The reduction plan of an R×C board: which tiles to place, in which order, before the last small block is
 * left to an optimal solver.
 *
 * Like the thesis's constructive algorithm, the free region shrinks one line at a time: its top row when it
 * has at least as many rows as columns, its left column otherwise, so a square board alternates row,
 * column and a long board first becomes square. Each line is placed tile by tile from one end, except its
 * last two tiles, which form one step: with the rest of the line fixed, neither can be placed alone without
 * undoing the other (the thesis's "last two tiles" problem), so the search places them jointly. The free
 * region stops shrinking once it fits in 4×4; that block is solved optimally.
 */

/** One step of the plan: put `tiles` on their home cells, the cells in `frozen` being fixed walls. */
export interface Step {
  /** One tile, or the last two tiles of a line (penultimate first). */
  readonly tiles: readonly number[];
  /** Home cell of each tile. */
  readonly homes: readonly number[];
  /** Cells fixed before this step (1 = wall): every earlier step's homes. */
  readonly frozen: Uint8Array;
  /** Index of the line this step belongs to (0 = the first line filled). */
  readonly line: number;
}

/** The whole plan. */
export interface Plan {
  readonly rows: number;
  readonly cols: number;
  readonly steps: readonly Step[];
  /** Number of lines filled; the final block's tiles count as line `lines`. */
  readonly lines: number;
  /** For every tile, the index of the line that places it (`lines` for the final block). */
  readonly lineOf: Int32Array;
  /** For every tile, the index of the step that places it (`steps.length` for the final block). */
  readonly stepOf: Int32Array;
  /** The final block: rows top.., columns left.. (real coordinates). */
  readonly top: number;
  readonly left: number;
}

/** Largest final block side: the block is at most 4×4, the size the optimal pattern-database solver takes. */
export const FINAL_SIDE = 4;

/** Builds the plan of an R×C board (R, C ≥ 2). */
export function makePlan(rows: number, cols: number): Plan {
  const n = rows * cols;
  const frozen = new Uint8Array(n);
  const steps: Step[] = [];
  const lineOf = new Int32Array(n);
  const stepOf = new Int32Array(n);
  let top = 0;
  let left = 0;
  let line = 0;
  const add = (cells: number[]): void => {
    const tiles = cells.map((c) => c + 1);
    steps.push({ tiles, homes: cells, frozen: frozen.slice(), line });
    for (const c of cells) {
      lineOf[c + 1] = line;
      stepOf[c + 1] = steps.length - 1;
      frozen[c] = 1;
    }
  };
  while (rows - top > FINAL_SIDE || cols - left > FINAL_SIDE) {
    const cells: number[] = [];
    if (rows - top >= cols - left) {
      for (let c = left; c < cols; c++) cells.push(top * cols + c);
      top++;
    } else {
      for (let r = top; r < rows; r++) cells.push(r * cols + left);
      left++;
    }
    for (let i = 0; i < cells.length - 2; i++) add([cells[i]]);
    add(cells.slice(-2));
    line++;
  }
  for (let r = top; r < rows; r++) {
    for (let c = left; c < cols; c++) {
      const t = r * cols + c + 1;
      if (t < n) {
        lineOf[t] = line;
        stepOf[t] = steps.length;
      }
    }
  }
  return { rows, cols, steps, lines: line, lineOf, stepOf, top, left };
}
