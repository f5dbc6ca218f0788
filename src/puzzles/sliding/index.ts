import type { Rng } from '../../core/rng.ts';
import type { Bound, ScrambleSpec, SlidingState, WireMoves } from '../../core/types.ts';
import { renderSliding } from './render.ts';
import { slidingScene } from './scene.ts';
import { z } from 'zod';
import { textMoves } from '../move-form.ts';
import type { Puzzle } from '../puzzle.ts';
import { replayAll } from '../replay-all.ts';
import { wireCount, wireInts } from '../wire-shape.ts';
import { normalizeSlidingSpec, requireSlidingSpec } from './spec.ts';
import { parseSliding } from './parse.ts';
import { formatSlidingMoves, parseSlidingMoves } from './moves.ts';
import { SlidingReplayer } from './replayer.ts';
import { goalTiles, scrambleTiles, walkTiles } from './scramble.ts';
import { hasSlidingTable, slidingTable } from './table.ts';
import { manhattanLinearConflict } from './bound.ts';
import { describeSliding } from './describe.ts';

function state(rows: number, cols: number, tiles: Int32Array): SlidingState {
  return { kind: 'sliding', rows, cols, tiles: Array.from(tiles) };
}

/**
 * The sliding tile puzzle, the (R×C−1)-puzzle, for R, C from 2 to 1000. State
 * `{"kind":"sliding","rows":R,"cols":C,"tiles":[...]}` row-major with 0 = blank; goal 1..R·C−1 then the
 * blank. Moves name where the blank goes: `U D L R`; the wire form is a plain string of those letters only,
 * while parseMoves (user text) also takes lowercase and ignores whitespace.
 */
export const sliding: Puzzle<SlidingState> = {
  kind: 'sliding',

  wireShape: z.object({ kind: z.literal('sliding'), rows: wireCount, cols: wireCount, tiles: wireInts }),

  parse: parseSliding,

  sizeOptions: { size: 'square side', rows: 'rows', cols: 'columns' },

  defaultSpec: { kind: 'sliding', size: 4 },

  normalizeSpec: normalizeSlidingSpec,

  compliance: {
    specs: [
      { kind: 'sliding', rows: 2, cols: 2 },
      { kind: 'sliding', rows: 3, cols: 3 },
    ],
    fixed: [],
  },

  // The side, as --size counts it (--rows/--cols: the larger); protocol 1 counted cells.
  sizeMeasure: (s: SlidingState) => Math.max(s.rows, s.cols),
  cellMeasure: (s: SlidingState) => s.rows * s.cols,

  moves: textMoves,

  goal(spec: ScrambleSpec): SlidingState {
    const { rows, cols } = requireSlidingSpec(spec);
    return state(rows, cols, goalTiles(rows, cols));
  },

  isSolved(s: SlidingState): boolean {
    const t = s.tiles;
    const last = t.length - 1;
    for (let i = 0; i < last; i++) if (t[i] !== i + 1) return false;
    return t[last] === 0;
  },

  scramble(spec: ScrambleSpec, rng: Rng): SlidingState {
    const { rows, cols } = requireSlidingSpec(spec);
    return state(rows, cols, scrambleTiles(rows, cols, rng));
  },

  walk(spec: ScrambleSpec, k: number, rng: Rng): SlidingState {
    const { rows, cols } = requireSlidingSpec(spec);
    return state(rows, cols, walkTiles(rows, cols, k, rng).tiles);
  },

  parseMoves: parseSlidingMoves,

  formatMoves: formatSlidingMoves,

  replayer(start: SlidingState) {
    return new SlidingReplayer(start);
  },

  replay: (start: SlidingState, moves: WireMoves) => replayAll(new SlidingReplayer(start), moves),

  bound(s: SlidingState): Bound {
    if (hasSlidingTable(s.rows, s.cols)) {
      const d = slidingTable(s.rows, s.cols).distance(s.tiles);
      if (d >= 0) return { optimal: d, lowerBound: d };
    }
    return { lowerBound: manhattanLinearConflict(s.tiles, s.rows, s.cols) };
  },

  specOf: (s: SlidingState) => ({ kind: 'sliding', rows: s.rows, cols: s.cols }),

  className(s: SlidingState): string {
    return `sliding ${s.rows}x${s.cols}`;
  },

  describe: describeSliding,
  render: renderSliding,
  scene: slidingScene,
};
