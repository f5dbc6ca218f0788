/**
 * ida-star on big boards (the seed's weighted search, line by line above 7×7): 20 uniformly scrambled boards
 * per size, 8×8, 9×9 and 10×10, in process through the bot's own solve with a 60 s limit. Each board is
 * solved once and its wall time kept: the search does not depend on the limit (it only stops at it), so a
 * board answered within 10 s, less the bot's safety margin, is one a 10 s limit would have seen solved with
 * the same moves. Rows: fraction solved and mean moves within 10 s and within 60 s, and time per board. The
 * machine is shared, so each note carries the load average.
 */
import { loadavg } from 'node:os';
import { createRng } from '../src/core/rng.ts';
import { sliding } from '../src/puzzles/sliding/index.ts';
import { manhattanLinearConflict } from '../src/puzzles/sliding/bound.ts';
import { solveSliding } from '../bots/ida-star/solve.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const LIMITS_S = [10, 60];

export const bench: BenchSuite = async ({ quick }) => {
  const count = quick ? 3 : 20;
  const rows: BenchRow[] = [];
  for (const size of [8, 9, 10]) {
    const rng = createRng(`bench ida-star ${size}x${size}`);
    const runs: { ms: number; moves: number | null; bound: number }[] = [];
    for (let i = 0; i < count; i++) {
      const s = sliding.scramble({ kind: 'sliding', size }, rng);
      const limit = 60_000;
      const t0 = Date.now();
      const a = await solveSliding(s, { deadline: t0 + limit, timeLimitMs: limit, maxMoves: 1e7, signal: new AbortController().signal }, { pdbs: () => null });
      const ms = Date.now() - t0;
      const solved = 'moves' in a && typeof a.moves === 'string' && sliding.replay(s, a.moves).verdict === 'solved';
      runs.push({ ms, moves: solved ? (a as { moves: string }).moves.length : null, bound: manhattanLinearConflict(s.tiles, size, size) });
    }
    const load = loadavg()[0].toFixed(1);
    for (const limitS of LIMITS_S) {
      // The bot stops 5% of the limit (at most 250 ms) early to answer in time.
      const cut = limitS * 1000 - Math.min(250, limitS * 50);
      const ok = runs.filter((r) => r.moves !== null && r.ms <= cut);
      const moves = ok.reduce((s, r) => s + r.moves!, 0);
      const bound = ok.reduce((s, r) => s + r.bound, 0);
      rows.push({
        name: `ida-star ${size}x${size} solved within ${limitS} s`,
        value: ok.length / count,
        unit: 'fraction',
        note: `${ok.length} of ${count} boards; load ${load}`,
      });
      rows.push({
        name: `ida-star ${size}x${size} mean moves within ${limitS} s`,
        value: ok.length ? Math.round(moves / ok.length) : NaN,
        unit: 'moves',
        note: ok.length ? `${(moves / bound).toFixed(2)} × the Manhattan + LC bound` : 'none solved',
      });
    }
    const times = runs.map((r) => r.ms / 1000).sort((a, b) => a - b);
    rows.push({
      name: `ida-star ${size}x${size} seconds per board, median`,
      value: times[Math.floor(times.length / 2)],
      unit: 's',
      note: `max ${times[times.length - 1].toFixed(2)} s; load ${load}`,
    });
  }
  return rows;
};
