/**
 * Sharing pattern tables between patterns that a symmetry of the board maps onto each other. A pattern
 * database counts pattern-tile moves from a placement to the pattern's home, with the blank anywhere in the
 * region of free cells it starts in; a rotation or reflection of a square board maps moves to moves, so if
 * it maps pattern P's home cells onto pattern Q's, and P's goal region (the free cells connected to the
 * blank's home when P is home) onto Q's, then P's value of a placement is Q's value of the mapped placement.
 * On 5×5 the three 2×3 blocks along the edges of the 6-6-6-6 partition are one table read three ways.
 */

/** How to get one pattern's table. */
export interface PatternSource {
  /** The pattern's tiles, in the slot order of the table it is read from. */
  readonly tiles: readonly number[];
  /** Index (in the partition) of the pattern whose table is built; itself for a built pattern. */
  readonly source: number;
  /** Board cell → cell of the source table; absent for a built pattern. */
  readonly cellMap?: Uint8Array;
}

/** The 8 symmetries of a square board (side s) as cell maps; only the identity for other shapes. */
function symmetries(rows: number, cols: number): Uint8Array[] {
  const n = rows * cols;
  const id = Uint8Array.from({ length: n }, (_, c) => c);
  if (rows !== cols) return [id];
  const s = rows;
  const maps: Uint8Array[] = [];
  const xforms: ((r: number, c: number) => [number, number])[] = [
    (r, c) => [r, c],
    (r, c) => [c, s - 1 - r],
    (r, c) => [s - 1 - r, s - 1 - c],
    (r, c) => [s - 1 - c, r],
    (r, c) => [c, r],
    (r, c) => [r, s - 1 - c],
    (r, c) => [s - 1 - r, c],
    (r, c) => [s - 1 - c, s - 1 - r],
  ];
  for (const f of xforms) {
    const m = new Uint8Array(n);
    for (let c = 0; c < n; c++) {
      const [r2, c2] = f(Math.floor(c / cols), c % cols);
      m[c] = r2 * cols + c2;
    }
    maps.push(m);
  }
  return maps;
}

/** The free cells connected to the blank's home (the last cell) when `tiles` are home, as a sorted list. */
function goalRegion(rows: number, cols: number, tiles: readonly number[]): number[] {
  const n = rows * cols;
  const blocked = new Set(tiles.map((t) => t - 1));
  const seen = new Set([n - 1]);
  const todo = [n - 1];
  while (todo.length > 0) {
    const c = todo.pop()!;
    const r = Math.floor(c / cols);
    const q = c % cols;
    const next = [r > 0 ? c - cols : -1, r < rows - 1 ? c + cols : -1, q > 0 ? c - 1 : -1, q < cols - 1 ? c + 1 : -1];
    for (const x of next) {
      if (x < 0 || blocked.has(x) || seen.has(x)) continue;
      seen.add(x);
      todo.push(x);
    }
  }
  return [...seen].sort((a, b) => a - b);
}

const sameSet = (a: readonly number[], b: readonly number[]): boolean => {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
};

/**
 * For each pattern of `partition`: built from its own table, or read from an earlier pattern's table through
 * a board symmetry (the first that fits, so the choice is deterministic).
 */
export function sharePatternTables(rows: number, cols: number, partition: readonly (readonly number[])[]): PatternSource[] {
  const maps = symmetries(rows, cols);
  const out: PatternSource[] = [];
  partition.forEach((tiles, i) => {
    const homes = tiles.map((t) => t - 1);
    const region = goalRegion(rows, cols, tiles);
    for (let j = 0; j < i; j++) {
      if (out[j].source !== j || partition[j].length !== tiles.length) continue;
      const qTiles = partition[j];
      const qRegion = goalRegion(rows, cols, qTiles);
      for (const m of maps) {
        if (!sameSet(homes.map((c) => m[c]), qTiles.map((t) => t - 1))) continue;
        if (!sameSet(region.map((c) => m[c]), qRegion)) continue;
        // Slot s of Q's table holds Q's tile qTiles[s]; ours is the tile whose home maps onto its home.
        const ordered = qTiles.map((qt) => tiles[homes.findIndex((h) => m[h] === qt - 1)]);
        out.push({ tiles: ordered, source: j, cellMap: m });
        return;
      }
    }
    out.push({ tiles, source: i });
  });
  return out;
}
