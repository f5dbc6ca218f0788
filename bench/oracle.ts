/**
 * oracle: the referee's exact 4×4 oracle (src/solvers/sliding/oracle.ts) on uniform 15-puzzles from a fixed
 * seed, through its worker thread as a match uses it: seconds per scramble (the worker's own clock, so the
 * figure excludes queueing), mean and max over 100, and how many stayed at the bound.
 */
import { createRng } from '../src/core/rng.ts';
import { sliding } from '../src/puzzles/sliding/index.ts';
import { SlidingOracle } from '../src/solvers/sliding/oracle.ts';
import type { BenchRow, BenchSuite } from './types.ts';

export const bench: BenchSuite = async ({ quick }) => {
  const count = quick ? 10 : 100;
  const rng = createRng('bench oracle 15-puzzle');
  const oracle = new SlidingOracle();
  try {
    const states = Array.from({ length: count }, () => sliding.scramble({ kind: 'sliding', rows: 4, cols: 4 }, rng));
    const t0 = performance.now();
    const answers = await Promise.all(states.map((s) => oracle.improve(s, sliding.bound(s))));
    const wall = (performance.now() - t0) / 1000;
    const secs = answers.map((a) => a.ms / 1000);
    const bound = answers.filter((a) => a.bound.optimal === undefined);
    const mean = secs.reduce((a, b) => a + b, 0) / count;
    const note = `${count} uniform 15-puzzles in a worker thread, ${wall.toFixed(1)} s in all`;
    const rows: BenchRow[] = [
      { name: 'oracle 4x4 seconds per scramble, mean', value: mean, unit: 's', note },
      { name: 'oracle 4x4 seconds per scramble, max', value: Math.max(...secs), unit: 's', target: '≤ 30 (budget)' },
      { name: 'oracle 4x4 nodes per scramble, mean', value: answers.reduce((a, b) => a + (b.nodes ?? 0), 0) / count, unit: 'nodes' },
      { name: 'oracle 4x4 scrambles left at the bound', value: bound.length, unit: 'scrambles', target: '0', note: bound[0]?.note },
    ];
    return rows;
  } finally {
    await oracle.close();
  }
};
