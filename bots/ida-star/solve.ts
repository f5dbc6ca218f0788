import type { SlidingState } from '../../src/core/types.ts';
import type { SolveAnswer, SolveContext } from '../../src/sdk/types.ts';
import { isSolvable } from '../../src/puzzles/sliding/parity.ts';
import { applyMoves, isGoal, isPermutation, makeBoard } from '../../src/solvers/sliding/board.ts';
import type { Board } from '../../src/solvers/sliding/board.ts';
import { IdaSearch } from '../../src/solvers/sliding/ida-search.ts';
import type { SearchStatus } from '../../src/solvers/sliding/ida-search.ts';
import { ManhattanLcHeuristic } from '../../src/solvers/sliding/manhattan-lc.ts';
import { PdbHeuristic } from '../../src/solvers/sliding/pdb-heuristic.ts';
import { PdbIdaSearch } from '../../src/solvers/sliding/pdb-ida-search.ts';
import type { PatternTable } from '../../src/solvers/sliding/pdb-heuristic.ts';
import { removeCycles } from '../shared/cycles.ts';
import { StagedSearch } from './staged-search.ts';
import { describeWeighting, WeightedSearch } from './weighted-search.ts';
import type { Weighting } from './weighted-search.ts';

/** Largest board the bot accepts (cells); the weighted pool is sized for it. */
export const MAX_CELLS = 100;
/** Boards up to this many cells are solved optimally; bigger ones by weighted search. */
export const OPTIMAL_MAX_CELLS = 16;
/**
 * Boards up to this many cells (6×6) are searched whole first, as the seed did; bigger ones line by line
 * (staged-search.ts). On 7×7 the whole-board search took up to 8.9 s of a 10 s limit on a quiet machine
 * (2 of 10 boards filled its memory first), line by line 0.1 s and shorter answers (642 moves against 780).
 */
export const WHOLE_MAX_CELLS = 36;
/** Default memory budget of the weighted searches, bytes (reported in the answer's note). */
export const WEIGHTED_BYTES = 400e6;

/** How the bot was started. */
export interface SolverOptions {
  /** `--weight w`: f = g + w·h everywhere (w = 1 keeps optimal IDA* where it applies). */
  readonly weight?: number;
  /** The 4×4 tables when loaded, else null (then 4×4 uses Manhattan + linear conflict). */
  readonly pdbs: () => readonly PatternTable[] | null;
  /** Nodes per slice between clock checks and event-loop turns. */
  readonly sliceNodes?: number;
  /** Memory budget of the weighted search, bytes. */
  readonly weightedBytes?: number;
}

interface Engine {
  run(budget: number): SearchStatus;
  solution(): string;
  readonly nodes: number;
  /** Why it stopped without a solution. */
  readonly failure?: string;
}

/**
 * The whole-board weighted search, going on line by line (from the start, with the same weighting) once it
 * has filled its memory: so a board it cannot finish whole still gets an answer within the time limit.
 */
class WholeThenStaged implements Engine {
  private whole: WeightedSearch | null;
  private staged: StagedSearch | null = null;
  private spent = 0;

  constructor(
    private readonly board: Board,
    private readonly tiles: readonly number[],
    private readonly weighting: Weighting,
    private readonly cap: number,
  ) {
    this.whole = board.size <= WHOLE_MAX_CELLS ? new WeightedSearch(board, tiles, weighting, cap) : null;
    if (!this.whole) this.staged = new StagedSearch(board, tiles, weighting, cap);
  }

  get nodes(): number {
    return this.spent + (this.whole?.nodes ?? 0) + (this.staged?.nodes ?? 0);
  }

  get failure(): string | undefined {
    return this.staged?.failure;
  }

  /** "whole" or "line by line", for the note. */
  get mode(): string {
    return this.staged ? 'line by line' : 'whole board';
  }

  run(budget: number): SearchStatus {
    if (this.whole) {
      const st = this.whole.run(budget);
      if (st !== 'exhausted') return st;
      this.spent += this.whole.nodes;
      this.whole = null;
      this.staged = new StagedSearch(this.board, this.tiles, this.weighting, this.cap);
      return 'running';
    }
    return this.staged!.run(budget);
  }

  solution(): string {
    return this.whole ? this.whole.solution() : this.staged!.solution();
  }
}

/** The seed's weighting: h·√h up to 5×5-sized boards, h·h beyond. */
export function defaultWeighting(cells: number): Weighting {
  return cells <= 25 ? { kind: 'sqrt' } : { kind: 'square' };
}

/** Picks the engine for a board and says what its answer will be worth. */
function chooseEngine(board: Board, tiles: readonly number[], opts: SolverOptions): { engine: Engine; optimal: boolean; note: () => string } {
  const w = opts.weight;
  if ((w === undefined && board.size <= OPTIMAL_MAX_CELLS) || w === 1) {
    const tables = board.rows === 4 && board.cols === 4 ? opts.pdbs() : null;
    // With tables, the search that does the tables' update in its own loop (same nodes, same answer).
    const heuristic = tables ? new PdbHeuristic(board, tables) : new ManhattanLcHeuristic(board);
    const engine = heuristic instanceof PdbHeuristic ? new PdbIdaSearch(board, tiles, heuristic) : new IdaSearch(board, tiles, heuristic);
    return { engine, optimal: true, note: () => `IDA*, ${heuristic.name}` };
  }
  const weighting: Weighting = w !== undefined ? { kind: 'linear', w } : defaultWeighting(board.size);
  const bytes = opts.weightedBytes ?? WEIGHTED_BYTES;
  const cap = Math.max(10_000, Math.floor(bytes / (board.size + 30)));
  const engine = new WholeThenStaged(board, tiles, weighting, cap);
  const note = (): string =>
    `weighted best-first (f = g + ${describeWeighting(weighting)}), manhattan+lc, ${engine.mode}, memory cap ${(bytes / 1e6).toFixed(bytes < 10e6 ? 1 : 0)} MB, not optimal`;
  return { engine, optimal: false, note };
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * Solves one sliding board within the context's deadline. The search runs in slices; between slices it
 * checks the clock (stopping a safety margin before the deadline, so the give-up still arrives in time) and
 * the cancel signal, and yields to the event loop so cancel messages can arrive at all.
 */
export async function solveSliding(state: SlidingState, ctx: SolveContext, opts: SolverOptions): Promise<SolveAnswer> {
  const t0 = Date.now();
  const { rows, cols, tiles } = state;
  if (rows * cols > MAX_CELLS) return { unsupported: `boards of at most ${MAX_CELLS} cells` };
  if (!isPermutation(rows * cols, tiles)) return { giveUp: 'not a permutation of 0..R·C−1' };
  const board = makeBoard(rows, cols);
  if (!isSolvable(tiles, board.rows, board.cols)) return { giveUp: 'unsolvable (wrong parity)' };
  const { engine, optimal, note } = chooseEngine(board, tiles, opts);
  const margin = Math.min(250, Math.max(10, ctx.timeLimitMs * 0.05));
  const slice = opts.sliceNodes ?? 200_000;
  for (;;) {
    if (ctx.signal.aborted) return { giveUp: 'cancelled' };
    if (Date.now() >= ctx.deadline - margin) return { giveUp: 'time limit' };
    const status = engine.run(slice);
    if (status === 'found') break;
    if (status === 'exhausted') return { giveUp: `search exhausted: ${engine.failure ?? 'no solution'}` };
    await turn();
  }
  // The line-by-line search may come back to a state it passed (a placed tile moved and put back): cut loops.
  const moves = optimal ? engine.solution() : removeCycles(rows, cols, tiles, engine.solution());
  // Never send a wrong answer: replay it here first (cheap next to the search).
  const end = applyMoves(board, tiles, moves);
  if (!end || !isGoal(end)) throw new Error(`ida-star: internal error, solution does not reach the goal`);
  if (moves.length > ctx.maxMoves) return { giveUp: `solution of ${moves.length} moves exceeds maxMoves ${ctx.maxMoves}` };
  return { moves, optimal, nodes: engine.nodes, computeMs: Date.now() - t0, note: note() };
}
