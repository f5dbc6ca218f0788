/**
 * Warehouse bots: moves and time of warehouse-corridors (thesis ch. 4) and the warehouse-simple baseline on
 * uniform random scrambles, against the thesis's worst-case bound 2n³ − 6n² + 4n√n. The thesis claims the
 * warehouse needs under half the moves of the single-blank (n²−1)-puzzle; we compare the corridors bot's
 * MEASURED MEAN on random scrambles with (a) the thesis's Theorem 2 WORST-CASE bound for the single-blank
 * puzzle, 5n³ − 17n²/2 + 31n/2 − 71, and (b) Parberry's 8/3·n³ expectation, and print the thesis's own
 * worst-case vs worst-case ratio (its bound over Theorem 2) beside them.
 */
import { createRng } from '../src/core/rng.ts';
import { warehouse } from '../src/puzzles/warehouse/index.ts';
import { geometry, thesisBound } from '../bots/shared/warehouse/geometry.ts';
import { solveCorridors } from '../bots/warehouse-corridors/corridors.ts';
import { solveSimple } from '../bots/warehouse-simple/greedy-swaps.ts';
import type { BenchRow, BenchSuite } from './types.ts';

/** Theorem 2 of the thesis: worst case of its single-blank (n²−1)-puzzle algorithm. */
function theorem2(n: number): number {
  return 5 * n ** 3 - (17 * n ** 2) / 2 + (31 * n) / 2 - 71;
}

const BOTS = [
  ['warehouse-corridors', solveCorridors],
  ['warehouse-simple', solveSimple],
] as const;

export const bench: BenchSuite = async ({ quick }) => {
  const plan: [number, number][] = quick
    ? [[9, 10], [16, 5], [25, 2]]
    : [[9, 40], [16, 20], [25, 8], [49, 3], [100, 1]];
  const rows: BenchRow[] = [];
  for (const [n, samples] of plan) {
    const tiles = geometry(n).tiles;
    const rng = createRng(`bench-warehouse-${n}`);
    const starts = Array.from({ length: samples }, () => warehouse.scramble({ kind: 'warehouse', size: n }, rng));
    const bound = thesisBound(n);
    const means = new Map<string, number>();
    for (const [name, solve] of BOTS) {
      let total = 0, worst = 0;
      const t0 = performance.now();
      for (const s of starts) {
        const { count } = solve(n, s.cells);
        total += count;
        worst = Math.max(worst, count);
      }
      const ms = (performance.now() - t0) / samples;
      const mean = total / samples;
      means.set(name, mean);
      rows.push({
        name: `${name} n=${n} mean moves`,
        value: mean,
        unit: 'moves',
        target: name === 'warehouse-corridors' ? `≤ ${bound.toFixed(0)} (thesis bound)` : undefined,
        note: `${samples} scrambles, ${tiles} tiles, ${(mean / tiles).toFixed(1)} moves/tile, max ${worst}`,
      });
      rows.push({ name: `${name} n=${n} solve time`, value: ms, unit: 'ms', note: `mean of ${samples}` });
    }
    const corridors = means.get('warehouse-corridors')!;
    rows.push({ name: `n=${n} thesis bound 2n³−6n²+4n√n`, value: bound, unit: 'moves', note: `${(bound / tiles).toFixed(1)} moves/tile` });
    rows.push({
      name: `n=${n} corridors mean / single-blank Theorem 2 bound`,
      value: corridors / theorem2(n),
      unit: 'ratio',
      target: '< 0.5 (thesis claim)',
      note: `measured mean vs worst-case bound ${theorem2(n).toFixed(0)}; thesis bound / Theorem 2 = ${(bound / theorem2(n)).toFixed(3)}`,
    });
    rows.push({
      name: `n=${n} corridors mean / Parberry 8/3·n³`,
      value: corridors / ((8 / 3) * n ** 3),
      unit: 'ratio',
      note: 'measured mean vs expected single-blank moves',
    });
    rows.push({
      name: `n=${n} simple / corridors mean moves`,
      value: means.get('warehouse-simple')! / corridors,
      unit: 'ratio',
    });
  }
  return rows;
};
