/**
 * Constructive bot (thesis ch. 3) over uniformly scrambled n×n boards: mean and max moves, moves/n³
 * against Parberry 2015's expected 8/3·n³ for his greedy algorithm, the thesis's Theorem 2 worst-case
 * bound, and solve time per board (solver only, no protocol; process CPU time, which on the shared
 * development machine is far steadier than wall time). Quick mode: fewer boards, n ≤ 50.
 */
import { createRng } from '../src/core/rng.ts';
import { sliding } from '../src/puzzles/sliding/index.ts';
import { solveConstructive } from '../bots/shared/constructive/constructive.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const PARBERRY_EXPECTED = 8 / 3;

function thesisBound(n: number): number {
  return 5 * n ** 3 - (17 * n * n) / 2 + (31 * n) / 2 - 71;
}

export const bench: BenchSuite = async ({ quick }) => {
  const plan: [number, number][] = quick
    ? [
        [4, 200],
        [5, 100],
        [10, 20],
        [20, 5],
        [50, 2],
      ]
    : [
        [4, 1000],
        [5, 500],
        [10, 100],
        [20, 30],
        [50, 8],
        [100, 3],
      ];
  const rows: BenchRow[] = [];
  for (const [n, boards] of plan) {
    const rng = createRng(`bench constructive ${n}`);
    let sum = 0;
    let max = 0;
    let ms = 0;
    for (let i = 0; i < boards; i++) {
      const s = sliding.scramble({ kind: 'sliding', rows: n, cols: n }, rng);
      const t0 = process.cpuUsage();
      const bd = solveConstructive(n, n, s.tiles);
      const cpu = process.cpuUsage(t0);
      ms += (cpu.user + cpu.system) / 1000;
      if (!bd) throw new Error('constructive: stopped unexpectedly');
      sum += bd.moves.length;
      max = Math.max(max, bd.moves.length);
    }
    const mean = sum / boards;
    const n3 = n ** 3;
    rows.push({
      name: `constructive ${n}x${n} mean moves`,
      value: Math.round(mean * 10) / 10,
      unit: 'moves',
      note: `${boards} boards; max ${max}; thesis bound ${thesisBound(n)}`,
    });
    rows.push({
      name: `constructive ${n}x${n} moves/n³`,
      value: Math.round((mean / n3) * 1000) / 1000,
      unit: 'moves/n³',
      target: `< ${PARBERRY_EXPECTED.toFixed(3)} (Parberry 2015 expected)`,
      note: `max/n³ ${(max / n3).toFixed(3)}`,
    });
    rows.push({
      name: `constructive ${n}x${n} CPU time per board`,
      value: Math.round((ms / boards) * 100) / 100,
      unit: 'ms',
      ...(n === 100 ? { target: '≤ 1000' } : {}),
    });
  }
  return rows;
};
