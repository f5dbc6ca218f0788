/**
 * The warehouse board of the thesis (seed 000, chapter 4): an n×n board, n = m² a perfect square, holds
 * (m−1)² blocks ("shelves") of m×m tiles separated and surrounded by one-cell corridors. Row or column i is
 * a corridor iff i % (m+1) === 0, so there are n² − 2nm + n tiles and 2nm − n empty cells. The goal numbers
 * the block cells 1..T in row-major order of the whole board; corridors are 0.
 */

/** Smallest accepted board side (one 2×2 block). The largest, 400 = 20², gives 160,000 cells. */
export const WAREHOUSE_MIN_SIZE = 4;
/** Largest accepted board side. */
export const WAREHOUSE_MAX_SIZE = 400;

/** Direction letters in code order: 0 U (row − 1), 1 D, 2 L (col − 1), 3 R. Opposite of d is d ^ 1. */
export const WAREHOUSE_DIRS = 'UDLR';

/** Precomputed geometry of one board size. Treat every field as read-only (shared, cached). */
export interface WarehouseLayout {
  /** Board side n. */
  readonly size: number;
  /** Block side m = √n. */
  readonly m: number;
  /** Number of tiles T = n² − 2nm + n. */
  readonly tiles: number;
  /** Per row/column index: 1 when that line is a corridor. */
  readonly corridorLine: Uint8Array;
  /** Cell indices (row-major) of all block cells, in board order; tile t's home is blockCells[t − 1]. */
  readonly blockCells: Int32Array;
  /** Home cell of tile t at index t; index 0 is −1 (0 is not a tile). */
  readonly homeOf: Int32Array;
  /** The goal board: tile numbers on block cells, 0 on corridors. */
  readonly goalCells: Int32Array;
}

/** True when n is an accepted warehouse side: a perfect square from 4 to 400. */
export function isWarehouseSize(n: unknown): n is number {
  if (!Number.isInteger(n) || (n as number) < WAREHOUSE_MIN_SIZE || (n as number) > WAREHOUSE_MAX_SIZE) return false;
  const m = Math.round(Math.sqrt(n as number));
  return m * m === n;
}

/** True when row/column index i is a corridor line on a board with block side m. */
export function isCorridor(m: number, i: number): boolean {
  return i % (m + 1) === 0;
}

const cache = new Map<number, WarehouseLayout>();

/**
 * The layout for side n (memoized: layouts are immutable and the largest is ~1.3 MB). Throws on a size
 * that fails {@link isWarehouseSize}: callers validate user input first, so that is a programmer error.
 */
export function warehouseLayout(n: number): WarehouseLayout {
  const hit = cache.get(n);
  if (hit) return hit;
  if (!isWarehouseSize(n)) throw new RangeError(`warehouseLayout: ${n} is not a perfect square from 4 to 400`);
  const m = Math.round(Math.sqrt(n));
  const corridorLine = new Uint8Array(n);
  for (let i = 0; i < n; i++) corridorLine[i] = isCorridor(m, i) ? 1 : 0;
  const tiles = n * n - 2 * n * m + n;
  const blockCells = new Int32Array(tiles);
  const homeOf = new Int32Array(tiles + 1);
  const goalCells = new Int32Array(n * n);
  homeOf[0] = -1;
  let t = 0;
  for (let r = 0; r < n; r++) {
    if (corridorLine[r]) continue;
    for (let c = 0; c < n; c++) {
      if (corridorLine[c]) continue;
      const cell = r * n + c;
      blockCells[t] = cell;
      t++;
      homeOf[t] = cell;
      goalCells[cell] = t;
    }
  }
  const layout: WarehouseLayout = { size: n, m, tiles, corridorLine, blockCells, homeOf, goalCells };
  cache.set(n, layout);
  return layout;
}

/** Sum over tiles of the Manhattan distance to the home cell: an admissible lower bound (one step per move). */
export function warehouseManhattan(layout: WarehouseLayout, cells: ArrayLike<number>): number {
  const n = layout.size;
  let sum = 0;
  for (let cell = 0; cell < cells.length; cell++) {
    const t = cells[cell];
    if (t === 0) continue;
    const home = layout.homeOf[t];
    const dr = Math.floor(cell / n) - Math.floor(home / n);
    const dc = (cell % n) - (home % n);
    sum += (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
  }
  return sum;
}
