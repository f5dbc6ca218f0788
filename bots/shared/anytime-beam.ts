/**
 * Anytime search for mid-size sliding boards: beam searches (layer-beam.ts) of doubling width until the time
 * is up, each pruned by the best answer so far, so every run either finds a shorter answer or proves that
 * its width cannot; the best answer found is returned. The first run is narrow enough to answer within
 * milliseconds, so there is an answer whatever the deadline; widths double because a beam's cost is linear
 * in its width, so all the narrower runs together cost about as much as the last.
 */
import type { Board } from '../../src/solvers/sliding/board.ts';
import { manhattanLc } from '../../src/solvers/sliding/manhattan-lc.ts';
import { LayerBeam } from './layer-beam.ts';
import type { StateEvaluator } from './layer-beam.ts';

/** How long, and how wide, to search. */
export interface AnytimeOptions {
  /** Epoch ms: stop by then with the best answer so far. */
  readonly deadline: number;
  readonly signal?: AbortSignal;
  /** Width of the first run (default 64) and the widest run (default 2^20). */
  readonly startWidth?: number;
  readonly maxWidth?: number;
  /** States expanded between clock checks and event-loop turns (default 2,000). */
  readonly slice?: number;
  /** A lower bound: an answer this long is optimal and ends the search. */
  readonly lowerBound?: number;
  /** Called with each better answer's length (benchmarks plot the anytime curve with it). */
  readonly onAnswer?: (length: number) => void;
}

/** The best answer and what it took. */
export interface AnytimeResult {
  readonly moves: string;
  /** Children generated over all runs. */
  readonly nodes: number;
  /** Widest run completed, and runs started. */
  readonly width: number;
  readonly runs: number;
  /** True when the answer's length met the lower bound (then it is optimal). */
  readonly provedOptimal: boolean;
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

/** Runs the doubling beams from `tiles` until the deadline; null only if even the first run found nothing. */
export async function anytimeBeam(board: Board, tiles: ArrayLike<number>, ev: StateEvaluator, opts: AnytimeOptions): Promise<AnytimeResult | null> {
  const slice = opts.slice ?? 2000;
  const maxWidth = opts.maxWidth ?? 1 << 20;
  let best: string | null = null;
  let nodes = 0;
  let runs = 0;
  let completed = 0;
  const stopped = (): boolean => (opts.signal?.aborted ?? false) || Date.now() >= opts.deadline;
  for (let width = opts.startWidth ?? 64; width <= maxWidth; width *= 2) {
    // Without an answer yet, keep going past the deadline's check only for the first run: it is quick.
    if (best !== null && stopped()) break;
    runs++;
    const beam: LayerBeam = new LayerBeam(board, tiles, ev, width, best === null ? Infinity : best.length);
    let status = beam.run(slice);
    while (status === 'running') {
      if (best !== null && stopped()) break;
      if (opts.signal?.aborted) break;
      await turn();
      status = beam.run(slice);
    }
    nodes += beam.nodes;
    if (status === 'running') break;
    completed = width;
    if (status === 'found') {
      best = beam.solution();
      opts.onAnswer?.(best.length);
    }
    if (best !== null && opts.lowerBound !== undefined && best.length <= opts.lowerBound) break;
  }
  if (best === null) return null;
  return { moves: best, nodes, width: completed, runs, provedOptimal: opts.lowerBound !== undefined && best.length <= opts.lowerBound };
}

/** Manhattan distance + linear conflict as a {@link StateEvaluator} (from scratch per state: no tables needed). */
export class ManhattanEvaluator implements StateEvaluator {
  readonly width = 0;
  readonly name = 'manhattan+lc';
  private readonly board: Board;
  private readonly tiles: Uint8Array;

  constructor(board: Board) {
    this.board = board;
    this.tiles = new Uint8Array(board.size);
  }

  full(pos: Uint8Array): number {
    for (let t = 0; t < pos.length; t++) this.tiles[pos[t]] = t;
    return manhattanLc(this.board, this.tiles);
  }

  child(pos: Uint8Array): number {
    return this.full(pos);
  }

  readonly maxRank = 4000;

  rank(_vals: Uint8Array, h: number): number {
    return Math.min(h, this.maxRank);
  }
}
