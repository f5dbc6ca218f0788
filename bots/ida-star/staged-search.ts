import type { Board } from '../../src/solvers/sliding/board.ts';
import { applyMoves } from '../../src/solvers/sliding/board.ts';
import type { SearchStatus } from '../../src/solvers/sliding/ida-search.ts';
import { WeightedSearch } from './weighted-search.ts';
import type { Weighting } from './weighted-search.ts';

/**
 * The seed's weighted search made to finish on big boards: the same search (f = g + φ(h), best-first, see
 * weighted-search.ts), run towards a sequence of sub-goals instead of the whole goal at once. Sub-goal k is "the tiles of
 * the first k lines are home" (lines as in the thesis: the free region's top row when it is at least as tall
 * as wide, else its left column, until a 4×4 block is left), h counts only those tiles, and each stage
 * starts where the last one ended, so placed tiles may be moved and put back when that is shorter. The last
 * stage counts every tile.
 *
 * Why: on uniformly random 8×8–10×10 boards the whole-board search falls into plateaus of Manhattan + linear
 * conflict it does not leave within minutes (best-first with h·h ordering explores a plateau breadth-first;
 * IDA* with h·h did not finish even the first line of a 10×10 in 60 s); the seed's own 8×8 took 34
 * minutes, on a board scrambled by a random walk. A stage's plateaus are small.
 */
export class StagedSearch {
  nodes = 0;
  /** Stages finished, and how many there are. */
  stage = 0;
  readonly stages: number;
  private readonly board: Board;
  private readonly weighting: Weighting;
  private readonly cap: number;
  /** Times a stage's search filled its memory and went on from its most advanced state. */
  restarts = 0;
  /** Why it stopped without a solution, when it did. */
  failure = '';
  /** counted[k] = the tiles stage k places (cumulative). */
  private readonly counted: Uint8Array[];
  private tiles: Uint8Array;
  private moves = '';
  private engine: WeightedSearch;
  private status: SearchStatus = 'running';

  /** `cap`: most states one stage's search keeps (its memory); at the cap it restarts from its best state. */
  constructor(board: Board, start: ArrayLike<number>, weighting: Weighting, cap: number) {
    this.board = board;
    this.weighting = weighting;
    this.cap = cap;
    this.counted = stagesOf(board.rows, board.cols);
    this.stages = this.counted.length;
    this.tiles = Uint8Array.from(start);
    this.engine = this.startStage();
  }

  private startStage(): WeightedSearch {
    return new WeightedSearch(this.board, this.tiles, this.weighting, this.cap, this.counted[this.stage]);
  }

  /** Goes on from the state `path` leads to. */
  private advance(path: string): void {
    this.moves += path;
    this.tiles = applyMoves(this.board, this.tiles, path)!;
  }

  /** The answer so far (complete once `run` returned 'found'). */
  solution(): string {
    return this.moves;
  }

  /** Runs about `budget` more node generations, moving on from stage to stage. */
  run(budget: number): SearchStatus {
    let left = budget;
    while (this.status === 'running' && left > 0) {
      const before = this.engine.nodes;
      const st = this.engine.run(left);
      this.nodes += this.engine.nodes - before;
      left -= this.engine.nodes - before;
      if (st === 'running') break;
      if (st === 'exhausted') {
        // Memory full: keep the way to the state nearest the sub-goal and search on from there. If even
        // that state is the start, the stage is stuck for good (not seen on any test board).
        const path = this.engine.pathTo(this.engine.bestId);
        if (path.length === 0) {
          this.failure = `line ${this.stage + 1} of ${this.stages}: no progress within the memory cap`;
          return (this.status = 'exhausted');
        }
        this.restarts++;
        this.advance(path);
        this.engine = this.startStage();
        continue;
      }
      this.advance(this.engine.solution());
      if (++this.stage === this.stages) return (this.status = 'found');
      this.engine = this.startStage();
    }
    return this.status;
  }
}

/** The cumulative tile sets of the stages of an R×C board (see {@link StagedSearch}). */
export function stagesOf(rows: number, cols: number): Uint8Array[] {
  const n = rows * cols;
  const out: Uint8Array[] = [];
  const counted = new Uint8Array(n);
  let top = 0;
  let left = 0;
  while (rows - top > 4 || cols - left > 4) {
    if (rows - top >= cols - left) {
      for (let c = left; c < cols; c++) counted[top * cols + c + 1] = 1;
      top++;
    } else {
      for (let r = top; r < rows; r++) counted[r * cols + left + 1] = 1;
      left++;
    }
    out.push(counted.slice());
  }
  counted.fill(1);
  counted[0] = 0;
  out.push(counted.slice());
  return out;
}
