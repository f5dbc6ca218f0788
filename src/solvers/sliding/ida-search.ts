import type { Board } from './board.ts';
import { DIR_LETTERS, INVERSE_DIR } from './board.ts';
import type { IncrementalHeuristic } from './heuristic.ts';

/** Where a search stands after a slice of work. */
export type SearchStatus = 'running' | 'found' | 'exhausted';

/**
 * Iterative-deepening A* on one sliding board, written as an explicit-stack loop that can stop after any
 * number of nodes and resume later. That lets the bot run it in slices, checking the deadline and letting the
 * event loop deliver cancel messages and pings between slices, without threads.
 *
 * Works on one Uint8Array in place; each node slides a single tile and asks the heuristic for an incremental
 * update. The only pruning is never playing the inverse of the previous move. With an admissible heuristic
 * the first solution found is optimal: every bound is the smallest f that exceeded the previous one.
 */
export class IdaSearch {
  /** Nodes generated so far (heuristic evaluations), over all iterations. */
  nodes = 0;
  /** Current f bound; after 'found' it equals the solution length. */
  bound: number;
  /** Completed iterations. */
  iterations = 0;
  /**
   * `run` returns (still 'running') as soon as an iteration would start at this bound or above: every
   * length below `bound` is then ruled out. A caller that knows a solution of this length stops here.
   */
  stopAtBound = Infinity;

  private readonly board: Board;
  private readonly heuristic: IncrementalHeuristic;
  private readonly tiles: Uint8Array;
  private blank: number;
  private depth = 0;
  private nextBound = Infinity;
  private path: Uint8Array;
  private nextDir: Uint8Array;
  private status: SearchStatus = 'running';

  constructor(board: Board, start: ArrayLike<number>, heuristic: IncrementalHeuristic) {
    this.board = board;
    this.heuristic = heuristic;
    this.tiles = Uint8Array.from(start);
    this.blank = this.tiles.indexOf(0);
    this.bound = heuristic.reset(this.tiles);
    this.path = new Uint8Array(256);
    this.nextDir = new Uint8Array(257);
    if (this.bound === 0) this.status = 'found';
  }

  /** The solution as a blank-move string (valid once `run` returned 'found'). */
  solution(): string {
    let s = '';
    for (let i = 0; i < this.depth; i++) s += DIR_LETTERS[this.path[i]];
    return s;
  }

  /** Explores about `budget` more nodes; returns 'found', 'exhausted' (no solution) or 'running'. */
  run(budget: number): SearchStatus {
    if (this.status !== 'running') return this.status;
    const tiles = this.tiles;
    const nb = this.board.neighbor;
    const heur = this.heuristic;
    let path = this.path;
    let nextDir = this.nextDir;
    let d = this.depth;
    let blank = this.blank;
    let bound = this.bound;
    let nextBound = this.nextBound;
    let nodes = 0;
    let status: SearchStatus = 'running';
    for (;;) {
      const dir = nextDir[d];
      if (dir === 4) {
        if (d === 0) {
          this.iterations++;
          if (nextBound === Infinity) {
            status = 'exhausted';
            break;
          }
          bound = nextBound;
          nextBound = Infinity;
          nextDir[0] = 0;
          if (nodes >= budget || bound >= this.stopAtBound) break;
          continue;
        }
        d--;
        const back = nb[blank * 4 + INVERSE_DIR[path[d]]];
        tiles[blank] = tiles[back];
        tiles[back] = 0;
        blank = back;
        heur.undo(d);
        continue;
      }
      nextDir[d] = dir + 1;
      if (d > 0 && dir === INVERSE_DIR[path[d - 1]]) continue;
      const to = nb[blank * 4 + dir];
      if (to < 0) continue;
      const tile = tiles[to];
      tiles[blank] = tile;
      tiles[to] = 0;
      // bound - d - 1 is the largest h this child may have and still be expanded.
      const h = heur.move(tiles, tile, to, blank, d, bound - d - 1);
      nodes++;
      const f = d + 1 + h;
      if (f > bound) {
        if (f < nextBound) nextBound = f;
        tiles[to] = tile;
        tiles[blank] = 0;
        heur.undo(d);
        if (nodes >= budget) break;
        continue;
      }
      path[d] = dir;
      blank = to;
      d++;
      if (h === 0) {
        status = 'found';
        break;
      }
      if (d >= path.length) {
        const p = new Uint8Array(path.length * 2);
        p.set(path);
        const n = new Uint8Array(path.length * 2 + 1);
        n.set(nextDir);
        path = this.path = p;
        nextDir = this.nextDir = n;
      }
      nextDir[d] = 0;
      if (nodes >= budget) break;
    }
    this.nodes += nodes;
    this.depth = d;
    this.blank = blank;
    this.bound = bound;
    this.nextBound = nextBound;
    this.status = status;
    return status;
  }
}
