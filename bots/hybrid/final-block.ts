/**
 * The last block of a reduction (at most 4×4, in the bottom-right corner): cut out of the board, relabelled
 * as a small puzzle of its own, and solved optimally. Up to 9 cells by the exact distance table of
 * src/puzzles; 3×4 and 4×3 by IDA* with Manhattan + linear conflict; 4×4 by IDA* with ida-star's additive
 * 6-6-3 pattern databases when they are loaded (Manhattan + linear conflict otherwise).
 */
import { hasSlidingTable, slidingTable } from '../../src/puzzles/sliding/table.ts';
import { makeBoard } from '../../src/solvers/sliding/board.ts';
import type { IncrementalHeuristic } from '../../src/solvers/sliding/heuristic.ts';
import { IdaSearch } from '../../src/solvers/sliding/ida-search.ts';
import { ManhattanLcHeuristic } from '../../src/solvers/sliding/manhattan-lc.ts';
import { PdbHeuristic } from '../../src/solvers/sliding/pdb-heuristic.ts';
import type { PatternTable } from '../../src/solvers/sliding/pdb-heuristic.ts';

/** A block cut out of a board. */
export interface Block {
  readonly rows: number;
  readonly cols: number;
  /** Local arrangement, row-major, 0 = blank, goal 1..rows·cols−1 then the blank. */
  readonly tiles: Uint8Array;
}

/**
 * The block rows top.., columns left.. of an R×C board whose other tiles are all home, relabelled. Every
 * tile in it has its home in it.
 */
export function cutBlock(rows: number, cols: number, tiles: ArrayLike<number>, top: number, left: number): Block {
  const h = rows - top;
  const w = cols - left;
  const local = new Uint8Array(h * w);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const t = tiles[(top + r) * cols + left + c];
      if (t === 0) continue;
      const home = t - 1;
      local[r * w + c] = (((home / cols) | 0) - top) * w + ((home % cols) - left) + 1;
    }
  }
  return { rows: h, cols: w, tiles: local };
}

/** Optimal solver of final blocks; keeps its heuristics between calls. */
export class BlockSolver {
  private readonly pdbs: () => readonly PatternTable[] | null;
  private readonly heuristics = new Map<string, IncrementalHeuristic>();

  constructor(pdbs: () => readonly PatternTable[] | null) {
    this.pdbs = pdbs;
  }

  private heuristic(rows: number, cols: number): IncrementalHeuristic {
    const tables = rows === 4 && cols === 4 ? this.pdbs() : null;
    const key = `${rows}x${cols}${tables ? ' pdb' : ''}`;
    let h = this.heuristics.get(key);
    if (!h) {
      const board = makeBoard(rows, cols);
      h = tables ? new PdbHeuristic(board, tables) : new ManhattanLcHeuristic(board);
      this.heuristics.set(key, h);
    }
    return h;
  }

  /** Name of the heuristic an R×C block is searched with, for notes. */
  heuristicName(rows: number, cols: number): string {
    return this.heuristic(rows, cols).name;
  }

  /** An admissible lower bound on the block's optimal length (exact for blocks of up to 9 cells). */
  lowerBound(block: Block): number {
    if (hasSlidingTable(block.rows, block.cols)) return slidingTable(block.rows, block.cols).distance(block.tiles);
    return this.heuristic(block.rows, block.cols).reset(Uint8Array.from(block.tiles));
  }

  /**
   * An optimal move string for the block, or null moves when IDA* needs more than `maxNodes` nodes (a rare
   * hard 4×4 block: the caller then tries another candidate or {@link solveWeighted}).
   */
  solve(block: Block, maxNodes = Infinity): { moves: string | null; nodes: number } {
    if (hasSlidingTable(block.rows, block.cols)) return { moves: slidingTable(block.rows, block.cols).solve(block.tiles), nodes: 0 };
    return this.ida(block, this.heuristic(block.rows, block.cols), maxNodes);
  }

  /** A fast, not necessarily optimal solution: IDA* on twice the heuristic. */
  solveWeighted(block: Block): { moves: string; nodes: number } {
    const r = this.ida(block, new ScaledHeuristic(this.heuristic(block.rows, block.cols), 2), Infinity);
    return { moves: r.moves!, nodes: r.nodes };
  }

  private ida(block: Block, h: IncrementalHeuristic, maxNodes: number): { moves: string | null; nodes: number } {
    const search = new IdaSearch(makeBoard(block.rows, block.cols), block.tiles, h);
    for (;;) {
      const status = search.run(1 << 18);
      if (status === 'found') return { moves: search.solution(), nodes: search.nodes };
      if (status === 'exhausted') throw new Error('hybrid: final block has no solution');
      if (search.nodes > maxNodes) return { moves: null, nodes: search.nodes };
    }
  }
}

/** A heuristic times a constant (inadmissible for w > 1: finds solutions fast, not shortest ones). */
class ScaledHeuristic implements IncrementalHeuristic {
  readonly name: string;
  constructor(
    private readonly inner: IncrementalHeuristic,
    private readonly w: number,
  ) {
    this.name = `${w}·${inner.name}`;
  }

  reset(tiles: Uint8Array): number {
    return this.w * this.inner.reset(tiles);
  }

  move(tiles: Uint8Array, tile: number, from: number, to: number, depth: number): number {
    return this.w * this.inner.move(tiles, tile, from, to, depth);
  }

  undo(depth: number): void {
    this.inner.undo(depth);
  }
}
