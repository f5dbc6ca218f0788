import type { Rng } from '../../core/rng.ts';
import type { WarehouseLayout } from './layout.ts';
import { WAREHOUSE_DIRS } from './layout.ts';

/** A random warehouse walk: the board it ends on and its moves (tile, direction code 0..3 = U D L R). */
export interface WarehouseWalk {
  readonly cells: Int32Array;
  readonly tiles: Int32Array;
  readonly dirs: Uint8Array;
}

/** Attempts before the no-undo rule is waived; only reachable on boards where the undo is the sole move. */
const MAX_ATTEMPTS = 100_000;

/**
 * Random walk of exactly k legal tile steps from `start` (default: the goal), never immediately undoing the
 * previous step. Each legal step is "tile t moves in direction d into empty cell e", a bijection with the
 * pairs (e, d) whose source neighbour holds a tile; so drawing a uniform (empty cell, direction) pair and
 * redrawing until it is legal picks uniformly among legal steps, in O(1) expected time per step with an
 * empty-cell list and its inverse index.
 */
export function warehouseWalk(layout: WarehouseLayout, k: number, rng: Rng, start?: ArrayLike<number>): WarehouseWalk {
  const n = layout.size;
  const cells = Int32Array.from(start ?? layout.goalCells);
  const emptyCount = n * n - layout.tiles;
  const empties = new Int32Array(emptyCount);
  const emptyIndex = new Int32Array(n * n).fill(-1);
  let e = 0;
  for (let c = 0; c < cells.length; c++) {
    if (cells[c] === 0) {
      empties[e] = c;
      emptyIndex[c] = e++;
    }
  }
  const tiles = new Int32Array(k);
  const dirs = new Uint8Array(k);
  let lastTile = -1;
  let lastDir = -1;
  for (let step = 0; step < k; step++) {
    for (let attempt = 0; ; attempt++) {
      const slot = rng.int(emptyCount);
      const to = empties[slot];
      const dir = rng.int(4);
      // The tile moving in `dir` into `to` comes from the neighbour of `to` in the opposite direction.
      const r = Math.floor(to / n);
      const c = to - r * n;
      let from = -1;
      if (dir === 0) from = r < n - 1 ? to + n : -1;
      else if (dir === 1) from = r > 0 ? to - n : -1;
      else if (dir === 2) from = c < n - 1 ? to + 1 : -1;
      else from = c > 0 ? to - 1 : -1;
      if (from < 0) continue;
      const tile = cells[from];
      if (tile === 0) continue;
      if (tile === lastTile && dir === (lastDir ^ 1) && attempt < MAX_ATTEMPTS) continue;
      cells[to] = tile;
      cells[from] = 0;
      empties[slot] = from;
      emptyIndex[from] = slot;
      emptyIndex[to] = -1;
      tiles[step] = tile;
      dirs[step] = dir;
      lastTile = tile;
      lastDir = dir;
      break;
    }
  }
  return { cells, tiles, dirs };
}

/** Formats moves as "17U 4L …". */
export function warehouseMovesText(tiles: ArrayLike<number>, dirs: ArrayLike<number>): string {
  const parts = new Array<string>(tiles.length);
  for (let i = 0; i < tiles.length; i++) parts[i] = `${tiles[i]}${WAREHOUSE_DIRS[dirs[i]]}`;
  return parts.join(' ');
}

/** The moves that undo a walk: reversed order, each direction flipped; solves the walk's end board. */
export function warehouseInverseText(tiles: ArrayLike<number>, dirs: ArrayLike<number>): string {
  const k = tiles.length;
  const parts = new Array<string>(k);
  for (let i = 0; i < k; i++) parts[i] = `${tiles[k - 1 - i]}${WAREHOUSE_DIRS[dirs[k - 1 - i] ^ 1]}`;
  return parts.join(' ');
}
