/**
 * Warehouse board geometry (thesis ch. 4): an n×n board, m = √n, row/col i is a corridor iff i % (m+1) = 0,
 * so (m−1)² blocks of m×m tiles sit between one-cell-wide corridors. Pure helpers over cell indices.
 */

/** Sizes and per-cell tables of one board size. */
export interface Geometry {
  readonly n: number;
  readonly m: number;
  /** 1 when the cell is a corridor cell, 0 for a block cell. */
  readonly corridor: Uint8Array;
  /** home[v] = the cell where tile v belongs (v ≥ 1; home[0] unused). */
  readonly home: Int32Array;
  /** Number of tiles, n² − 2nm + n. */
  readonly tiles: number;
}

/** m = √n when n is a perfect square ≥ 4, else 0. */
export function blockSide(n: number): number {
  if (!Number.isInteger(n) || n < 4) return 0;
  const m = Math.round(Math.sqrt(n));
  return m * m === n ? m : 0;
}

/** True when row/col index i is a corridor line. */
export function isCorridorLine(i: number, m: number): boolean {
  return i % (m + 1) === 0;
}

/** Builds the tables for size n (a perfect square ≥ 4). */
export function geometry(n: number): Geometry {
  const m = blockSide(n);
  if (m === 0) throw new RangeError(`warehouse size ${n} is not a perfect square ≥ 4`);
  const corridor = new Uint8Array(n * n);
  const home = new Int32Array(n * n + 1).fill(-1);
  let v = 0;
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (isCorridorLine(r, m) || isCorridorLine(c, m)) corridor[r * n + c] = 1;
      else home[++v] = r * n + c;
    }
  }
  return { n, m, corridor, home: home.subarray(0, v + 1), tiles: v };
}

/** The goal cells: block cells numbered 1.. in row-major order, corridors 0. */
export function goalCells(n: number): number[] {
  const g = geometry(n);
  const cells = new Array<number>(n * n).fill(0);
  for (let v = 1; v <= g.tiles; v++) cells[g.home[v]] = v;
  return cells;
}

/** Thesis §4.4 worst case: 2n³ − 6n² + 4n√n moves. */
export function thesisBound(n: number): number {
  return 2 * n ** 3 - 6 * n ** 2 + 4 * n * Math.sqrt(n);
}
