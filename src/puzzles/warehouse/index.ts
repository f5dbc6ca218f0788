import type { Rng } from '../../core/rng.ts';
import { shuffleInPlace } from '../../core/rng.ts';
import type { Bound, Result, ScrambleSpec, WarehouseState, WireMoves } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { renderWarehouse } from './render.ts';
import { warehouseScene } from './scene.ts';
import { z } from 'zod';
import { textMoves } from '../move-form.ts';
import type { Puzzle } from '../puzzle.ts';
import { replayAll } from '../replay-all.ts';
import { wireCount, wireInts } from '../wire-shape.ts';
import { isWarehouseSize, warehouseLayout, warehouseManhattan, WAREHOUSE_MAX_SIZE } from './layout.ts';
import { WarehouseReplayer } from './replayer.ts';
import { warehouseWalk } from './walk.ts';

const SIZE_RULE = `a perfect square from 4 to ${WAREHOUSE_MAX_SIZE} (4, 9, 16, 25, ...)`;

function parseWarehouse(json: unknown): Result<WarehouseState> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return reject('bad-state', 'a warehouse state must be a JSON object {"kind":"warehouse","size":n,"cells":[…]}');
  }
  const o = json as Record<string, unknown>;
  if (o.kind !== 'warehouse') return reject('bad-state', `expected kind "warehouse", got ${JSON.stringify(o.kind)}`);
  if (!isWarehouseSize(o.size)) return reject('bad-state', `warehouse "size" must be ${SIZE_RULE}, got ${JSON.stringify(o.size)}`);
  const n = o.size;
  if (!Array.isArray(o.cells)) return reject('bad-state', 'warehouse "cells" must be an array of tile numbers (0 = empty)');
  const cells = o.cells as unknown[];
  if (cells.length !== n * n) return reject('bad-state', `warehouse "cells" has ${cells.length} entries, expected ${n * n} (${n}x${n})`);
  const tiles = warehouseLayout(n).tiles;
  const seen = new Uint8Array(tiles + 1);
  for (let i = 0; i < cells.length; i++) {
    const t = cells[i];
    if (!Number.isInteger(t) || (t as number) < 0 || (t as number) > tiles) {
      return reject('bad-state', `warehouse cells[${i}] is ${JSON.stringify(t)}; expected 0 (empty) or a tile 1..${tiles}`);
    }
    if (t === 0) continue;
    if (seen[t as number]) return reject('bad-state', `warehouse tile ${t as number} appears twice (again at cells[${i}])`);
    seen[t as number] = 1;
  }
  for (let t = 1; t <= tiles; t++) {
    if (!seen[t]) return reject('bad-state', `warehouse tile ${t} is missing (a ${n}x${n} board holds tiles 1..${tiles})`);
  }
  return ok({ kind: 'warehouse', size: n, cells: cells as number[] });
}

function normalizeWarehouseSpec(spec: ScrambleSpec): Result<ScrambleSpec<'warehouse'>> {
  if (spec.kind !== 'warehouse') return reject('bad-spec', `expected a warehouse spec, got kind ${JSON.stringify(spec.kind)}`);
  const size = spec.size ?? (spec.rows === spec.cols ? spec.rows : undefined);
  if (size === undefined) return reject('bad-spec', `a warehouse spec needs "size", ${SIZE_RULE}`);
  if (!isWarehouseSize(size)) return reject('bad-spec', `warehouse "size" must be ${SIZE_RULE}, got ${JSON.stringify(size)}`);
  return ok({ kind: 'warehouse', size });
}

function sizeOf(spec: ScrambleSpec): number {
  const size = spec.size ?? spec.rows;
  if (!isWarehouseSize(size)) throw new RangeError(`warehouse: spec not normalized (size ${String(size)})`);
  return size;
}

/** One "17U" token with optional separators before it; lower-case letters are accepted from users. */
const TOKEN = /[\s,]*(\d+)([UDLRudlr])/y;
const TRAILING = /[\s,]*$/y;

/** Parses "17U 4L", "17u,4l" or "17U4L" into the canonical wire string "17U 4L". */
function parseWarehouseMoves(text: string): Result<WireMoves> {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    TRAILING.lastIndex = at;
    if (TRAILING.test(text)) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (!m) {
      const near = JSON.stringify(text.slice(at, at + 12).trim());
      return reject('bad-notation', `move ${out.length}: expected a tile number and a direction U/D/L/R (like 17U) at character ${at}, got ${near}`);
    }
    out.push(`${Number(m[1])}${m[2].toUpperCase()}`);
    at = TOKEN.lastIndex;
  }
  return ok(out.join(' '));
}

/** Grid picture: tiles by number, '.' for an empty corridor cell, '_' for an empty block cell; cut at 30×30. */
function describeWarehouse(state: WarehouseState): string {
  const n = state.size;
  const { corridorLine, tiles } = warehouseLayout(n);
  const width = String(tiles).length;
  const shown = Math.min(n, 30);
  const lines: string[] = [];
  for (let r = 0; r < shown; r++) {
    const row: string[] = [];
    for (let c = 0; c < shown; c++) {
      const t = state.cells[r * n + c];
      const empty = corridorLine[r] || corridorLine[c] ? '.' : '_';
      row.push((t === 0 ? empty : String(t)).padStart(width, ' '));
    }
    lines.push(row.join(' ') + (n > shown ? ' ...' : ''));
  }
  if (n > shown) lines.push(`... (${n - shown} more rows)`);
  return lines.join('\n');
}

/** Warehouse (thesis chapter 4): tiles step into adjacent empty cells until each is home. */
export const warehouse: Puzzle<WarehouseState> = {
  kind: 'warehouse',
  wireShape: z.object({ kind: z.literal('warehouse'), size: wireCount, cells: wireInts }),
  parse: parseWarehouse,
  sizeOptions: { size: 'n, a perfect square' },
  defaultSpec: { kind: 'warehouse', size: 9 },
  normalizeSpec: normalizeWarehouseSpec,
  compliance: {
    specs: [
      { kind: 'warehouse', size: 4 },
      { kind: 'warehouse', size: 9 },
    ],
    fixed: [],
  },
  sizeMeasure: (state: WarehouseState) => state.size,
  moves: textMoves,

  goal(spec: ScrambleSpec): WarehouseState {
    const size = sizeOf(spec);
    return { kind: 'warehouse', size, cells: Array.from(warehouseLayout(size).goalCells) };
  },

  isSolved(state: WarehouseState): boolean {
    const goal = warehouseLayout(state.size).goalCells;
    for (let i = 0; i < goal.length; i++) if (state.cells[i] !== goal[i]) return false;
    return true;
  },

  scramble(spec: ScrambleSpec, rng: Rng): WarehouseState {
    const size = sizeOf(spec);
    const layout = warehouseLayout(size);
    const order = new Int32Array(layout.tiles);
    for (;;) {
      for (let i = 0; i < order.length; i++) order[i] = i + 1;
      shuffleInPlace(order, rng);
      const cells = new Array<number>(size * size).fill(0);
      for (let i = 0; i < order.length; i++) cells[layout.blockCells[i]] = order[i];
      // Any non-identity placement has at least two tiles off home, so Manhattan ≥ 2 ⇒ at least 2 moves.
      if (warehouseManhattan(layout, cells) >= 2) return { kind: 'warehouse', size, cells };
    }
  },

  walk(spec: ScrambleSpec, k: number, rng: Rng): WarehouseState {
    const size = sizeOf(spec);
    return { kind: 'warehouse', size, cells: Array.from(warehouseWalk(warehouseLayout(size), k, rng).cells) };
  },

  parseMoves: parseWarehouseMoves,

  formatMoves(moves: WireMoves): string {
    return typeof moves === 'string' ? moves : JSON.stringify(moves);
  },

  replayer(start: WarehouseState): WarehouseReplayer {
    return new WarehouseReplayer(start);
  },

  replay: (start: WarehouseState, moves: WireMoves) => replayAll(new WarehouseReplayer(start), moves),

  bound(state: WarehouseState): Bound {
    // No exact optimum is known cheaply; Manhattan is admissible since each move shifts one tile by one cell.
    return { lowerBound: warehouseManhattan(warehouseLayout(state.size), state.cells) };
  },

  specOf: (state: WarehouseState) => ({ kind: 'warehouse', size: state.size }),

  className(state: WarehouseState): string {
    return `warehouse ${state.size}`;
  },

  describe: describeWarehouse,
  render: renderWarehouse,
  scene: warehouseScene,
};
