import type { BenchRow, BenchSuite } from './types.ts';
import { createRng } from '../src/core/rng.ts';
import { sliding } from '../src/puzzles/sliding/index.ts';
import { walkTiles } from '../src/puzzles/sliding/scramble.ts';
import { slidingTable } from '../src/puzzles/sliding/table.ts';
import { manhattanLinearConflict } from '../src/puzzles/sliding/bound.ts';

/** Median of the wall times (ms) of `runs` calls of `fn`, after `warmup` untimed calls. */
function medianMs(fn: () => void, warmup: number, runs: number): { median: number; max: number } {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1], max: times[times.length - 1] };
}

/** Scrambles per second for one shape, measured over `count` scrambles (median of a few batches). */
function scrambleRate(size: number, count: number, runs: number): { rate: number; note: string } {
  const rng = createRng(`bench-${size}`);
  const spec = { kind: 'sliding' as const, size };
  let sink = 0;
  const { median } = medianMs(
    () => {
      for (let i = 0; i < count; i++) sink += sliding.scramble(spec, rng).tiles[0];
    },
    1,
    runs,
  );
  return { rate: (count / median) * 1000, note: `median of ${runs} batches of ${count} (sink ${sink % 10})` };
}

/**
 * Sliding benchmarks: replayer throughput on the target case (a valid 1,000,000-move random walk
 * on 100×100), scramble throughput for 4×4 and 100×100, the 3×3 table build and the 1000×1000 bound.
 */
export const bench: BenchSuite = async ({ quick }) => {
  const rows: BenchRow[] = [];

  const MOVES = 1_000_000;
  const goal = sliding.goal({ kind: 'sliding', size: 100 });
  const { moves } = walkTiles(100, 100, MOVES, createRng('bench-walk'));
  let verdictOk = true;
  const validate = medianMs(
    () => {
      const r = sliding.replayer(goal);
      if (r.push(moves) !== null) verdictOk = false;
      r.finish();
    },
    quick ? 3 : 10,
    quick ? 5 : 21,
  );
  rows.push({
    name: 'sliding validate 100x100, 1e6-move walk',
    value: round(validate.median),
    unit: 'ms',
    target: '≤ 20',
    note: `median, max ${round(validate.max)} ms${verdictOk ? '' : ' (UNEXPECTED REJECTION)'}`,
  });
  rows.push({
    name: 'sliding validate throughput',
    value: round(MOVES / validate.median / 1000),
    unit: 'Mmoves/s',
    target: '≥ 50',
    note: 'from the median run',
  });

  const s4 = scrambleRate(4, quick ? 20_000 : 100_000, quick ? 3 : 7);
  rows.push({ name: 'sliding scramble 4x4', value: Math.round(s4.rate), unit: 'scrambles/s', note: s4.note });
  const s100 = scrambleRate(100, quick ? 50 : 300, quick ? 3 : 7);
  rows.push({ name: 'sliding scramble 100x100', value: Math.round(s100.rate), unit: 'scrambles/s', note: s100.note });

  const t0 = performance.now();
  const table = slidingTable(3, 3);
  rows.push({
    name: 'sliding 3x3 BFS table build',
    value: round(performance.now() - t0),
    unit: 'ms',
    note: `${table.states} states, max depth ${table.maxDepth}; 0 if already cached in this process`,
  });

  const big = sliding.scramble({ kind: 'sliding', size: 1000 }, createRng('bench-big'));
  const lc = medianMs(() => manhattanLinearConflict(big.tiles, 1000, 1000), 1, quick ? 3 : 7);
  rows.push({ name: 'sliding Manhattan+LC bound 1000x1000', value: round(lc.median), unit: 'ms', note: 'median' });

  return rows;
};

function round(x: number): number {
  return Math.round(x * 100) / 100;
}
