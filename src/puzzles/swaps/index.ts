import type { Rng } from '../../core/rng.ts';
import { shuffleInPlace } from '../../core/rng.ts';
import type { Bound, Result, ScrambleSpec, SwapsState, WireMoves } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { renderSwaps } from './render.ts';
import { swapsScene } from './scene.ts';
import { z } from 'zod';
import { pairMoves } from '../move-form.ts';
import type { Puzzle } from '../puzzle.ts';
import { replayAll } from '../replay-all.ts';
import { wireCount, wireInts } from '../wire-shape.ts';
import { swapsDistance } from './cycles.ts';
import { formatSwapsMoves, parseSwapsMoves } from './notation.ts';
import { SwapsReplayer } from './replayer.ts';

/** Largest side accepted: a 1000×1000 board is a million pieces. */
export const SWAPS_MAX_SIDE = 1000;

function sideProblem(name: string, v: unknown): string | null {
  if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > SWAPS_MAX_SIDE) {
    return `swaps "${name}" must be an integer from 1 to ${SWAPS_MAX_SIDE}, got ${JSON.stringify(v)}`;
  }
  return null;
}

function parseSwaps(json: unknown): Result<SwapsState> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return reject('bad-state', 'a swaps state must be a JSON object {"kind":"swaps","rows":…,"cols":…,"tiles":[…]}');
  }
  const o = json as Record<string, unknown>;
  if (o.kind !== 'swaps') return reject('bad-state', `expected kind "swaps", got ${JSON.stringify(o.kind)}`);
  const problem = sideProblem('rows', o.rows) ?? sideProblem('cols', o.cols);
  if (problem) return reject('bad-state', problem);
  const rows = o.rows as number;
  const cols = o.cols as number;
  const n = rows * cols;
  if (n < 2) return reject('bad-state', `a swaps board needs at least 2 pieces, got ${rows}x${cols}`);
  if (!Array.isArray(o.tiles)) return reject('bad-state', 'swaps "tiles" must be an array of piece numbers');
  const tiles = o.tiles as unknown[];
  if (tiles.length !== n) return reject('bad-state', `swaps "tiles" has ${tiles.length} entries, expected ${n} (${rows}x${cols})`);
  const seen = new Uint8Array(n + 1);
  for (let i = 0; i < n; i++) {
    const t = tiles[i];
    if (!Number.isInteger(t) || (t as number) < 1 || (t as number) > n) {
      return reject('bad-state', `swaps tiles[${i}] is ${JSON.stringify(t)}; pieces are the integers 1..${n}`);
    }
    if (seen[t as number]) return reject('bad-state', `swaps piece ${t as number} appears twice (again at tiles[${i}])`);
    seen[t as number] = 1;
  }
  // n distinct values in 1..n: a permutation, so no piece can be missing.
  return ok({ kind: 'swaps', rows, cols, tiles: tiles as number[] });
}

function normalizeSwapsSpec(spec: ScrambleSpec): Result<ScrambleSpec<'swaps'>> {
  if (spec.kind !== 'swaps') return reject('bad-spec', `expected a swaps spec, got kind ${JSON.stringify(spec.kind)}`);
  const rows = spec.rows ?? spec.size;
  const cols = spec.cols ?? spec.size;
  if (rows === undefined || cols === undefined) return reject('bad-spec', 'a swaps spec needs "size", or "rows" and "cols"');
  const problem = sideProblem('rows', rows) ?? sideProblem('cols', cols);
  if (problem) return reject('bad-spec', problem);
  // Two pieces are never 2 swaps apart, so a scramble needs at least 3.
  if (rows * cols < 3) return reject('bad-spec', `a swaps scramble needs at least 3 pieces, got ${rows}x${cols}`);
  return ok({ kind: 'swaps', rows, cols });
}

function dims(spec: ScrambleSpec): [number, number] {
  const rows = spec.rows ?? spec.size;
  const cols = spec.cols ?? spec.size;
  if (rows === undefined || cols === undefined) throw new RangeError('swaps: spec not normalized');
  return [rows, cols];
}

function identity(n: number): Int32Array {
  const t = new Int32Array(n);
  for (let i = 0; i < n; i++) t[i] = i + 1;
  return t;
}

/** Grid picture, cut to 30 rows × 30 columns with "..." so huge boards stay readable. */
function describeSwaps(state: SwapsState): string {
  const { rows, cols, tiles } = state;
  const width = String(rows * cols).length;
  const shownRows = Math.min(rows, 30);
  const shownCols = Math.min(cols, 30);
  const lines: string[] = [];
  for (let r = 0; r < shownRows; r++) {
    const cells: string[] = [];
    for (let c = 0; c < shownCols; c++) cells.push(String(tiles[r * cols + c]).padStart(width, ' '));
    lines.push(cells.join(' ') + (cols > shownCols ? ' ...' : ''));
  }
  if (rows > shownRows) lines.push(`... (${rows - shownRows} more rows)`);
  return lines.join('\n');
}

/** Swap puzzle: exchange any two pieces named by number (seed 004). */
export const swaps: Puzzle<SwapsState> = {
  kind: 'swaps',
  wireShape: z.object({ kind: z.literal('swaps'), rows: wireCount, cols: wireCount, tiles: wireInts }),
  parse: parseSwaps,
  sizeOptions: { size: 'square side', rows: 'rows', cols: 'columns' },
  defaultSpec: { kind: 'swaps', size: 3 },
  normalizeSpec: normalizeSwapsSpec,
  compliance: {
    specs: [
      { kind: 'swaps', rows: 2, cols: 2 },
      { kind: 'swaps', rows: 3, cols: 3 },
    ],
    fixed: [],
  },
  // The side, as --size counts it (--rows/--cols: the larger); protocol 1 counted cells.
  sizeMeasure: (state: SwapsState) => Math.max(state.rows, state.cols),
  cellMeasure: (state: SwapsState) => state.rows * state.cols,
  moves: pairMoves,

  goal(spec: ScrambleSpec): SwapsState {
    const [rows, cols] = dims(spec);
    return { kind: 'swaps', rows, cols, tiles: Array.from(identity(rows * cols)) };
  },

  isSolved(state: SwapsState): boolean {
    const t = state.tiles;
    for (let i = 0; i < t.length; i++) if (t[i] !== i + 1) return false;
    return true;
  },

  scramble(spec: ScrambleSpec, rng: Rng): SwapsState {
    const [rows, cols] = dims(spec);
    const n = rows * cols;
    if (n < 3) throw new RangeError('swaps.scramble needs at least 3 pieces');
    for (;;) {
      const tiles = shuffleInPlace(identity(n), rng);
      if (swapsDistance(tiles) >= 2) return { kind: 'swaps', rows, cols, tiles: Array.from(tiles) };
    }
  },

  walk(spec: ScrambleSpec, k: number, rng: Rng): SwapsState {
    const [rows, cols] = dims(spec);
    const n = rows * cols;
    const tiles = identity(n);
    let lastA = -1;
    let lastB = -1;
    for (let step = 0; step < k; step++) {
      let i: number;
      let j: number;
      // Redraw a repeat of the previous pair (it would undo it); with 2 pieces there is no other pair.
      do {
        i = rng.int(n);
        j = rng.int(n - 1);
        if (j >= i) j++;
      } while (n > 2 && ((tiles[i] === lastA && tiles[j] === lastB) || (tiles[i] === lastB && tiles[j] === lastA)));
      lastA = tiles[i];
      lastB = tiles[j];
      tiles[i] = lastB;
      tiles[j] = lastA;
    }
    return { kind: 'swaps', rows, cols, tiles: Array.from(tiles) };
  },

  parseMoves: parseSwapsMoves,
  formatMoves: formatSwapsMoves,

  replayer(start: SwapsState): SwapsReplayer {
    return new SwapsReplayer(start);
  },

  replay: (start: SwapsState, moves: WireMoves) => replayAll(new SwapsReplayer(start), moves),

  bound(state: SwapsState): Bound {
    const d = swapsDistance(state.tiles);
    return { optimal: d, lowerBound: d };
  },

  specOf: (state: SwapsState) => ({ kind: 'swaps', rows: state.rows, cols: state.cols }),

  className(state: SwapsState): string {
    return `swaps ${state.rows}x${state.cols}`;
  },

  describe: describeSwaps,
  render: renderSwaps,
  scene: swapsScene,
};
