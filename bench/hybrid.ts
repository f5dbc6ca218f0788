/**
 * hybrid bot vs the constructive bot on 20 uniformly scrambled boards per size (5×5 … 10×10, and two
 * rectangles), in process, default settings: mean moves ÷ the Manhattan + linear-conflict lower bound (the
 * issue's targets: ≤ 1.6 at 5×5, ≤ 2.0 at 10×10), mean moves of both, and the hybrid's CPU seconds per board
 * (mean, max; process CPU time, steadier than wall time on the shared machine). The per-shape tables are
 * built once per process and reported separately; they are not in the per-board times.
 */
import { createRng } from '../src/core/rng.ts';
import { sliding } from '../src/puzzles/sliding/index.ts';
import { manhattanLinearConflict } from '../src/puzzles/sliding/bound.ts';
import { solveConstructive } from '../bots/shared/constructive/constructive.ts';
import { planTables } from '../bots/hybrid/plan-tables.ts';
import { HybridSolver } from '../bots/hybrid/hybrid.ts';
import { defaultCacheDir } from '../src/solvers/sliding/pdb-cache.ts';
import { loadOrBuildPdbSet, PARTITION_4X4 } from '../src/solvers/sliding/pdb-set.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const TARGET: Record<string, string> = { '5x5': '≤ 1.6', '10x10': '≤ 2.0' };

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

export const bench: BenchSuite = async ({ quick }) => {
  const tables = await loadOrBuildPdbSet(4, 4, PARTITION_4X4, { dir: defaultCacheDir(), log: (l) => process.stderr.write(`${l}\n`) });
  const solver = new HybridSolver(() => tables);
  const shapes: [number, number][] = quick
    ? [
        [5, 5],
        [8, 8],
        [10, 10],
      ]
    : [
        [5, 5],
        [6, 6],
        [7, 7],
        [8, 8],
        [9, 9],
        [10, 10],
        [6, 9],
        [5, 10],
      ];
  const count = quick ? 5 : 20;
  const rows: BenchRow[] = [];
  for (const [r, c] of shapes) {
    const shape = `${r}x${c}`;
    let t = process.cpuUsage();
    planTables(r, c);
    const tableMs = cpuMs(t);
    const rng = createRng(`hybrid bench ${shape}`);
    let bound = 0;
    let moves = 0;
    let cmoves = 0;
    let sum = 0;
    let max = 0;
    for (let i = 0; i < count; i++) {
      const s = sliding.scramble({ kind: 'sliding', rows: r, cols: c }, rng);
      bound += manhattanLinearConflict(s.tiles, r, c);
      t = process.cpuUsage();
      const a = await solver.solve(r, c, s.tiles, { deadline: Date.now() + 60_000, budgetMs: 60_000 });
      const ms = cpuMs(t);
      if ('giveUp' in a || sliding.replay(s, a.moves).verdict !== 'solved') throw new Error(`hybrid failed on ${shape} board ${i}`);
      moves += a.moves.length;
      sum += ms;
      max = Math.max(max, ms);
      cmoves += solveConstructive(r, c, s.tiles)!.moves.length;
    }
    rows.push({
      name: `hybrid ${shape} moves / (Manhattan + LC)`,
      value: Math.round((moves / bound) * 1000) / 1000,
      unit: 'ratio',
      ...(TARGET[shape] ? { target: TARGET[shape] } : {}),
      note: `${count} boards, all solved; constructive ${(cmoves / bound).toFixed(2)}`,
    });
    rows.push({
      name: `hybrid ${shape} mean moves`,
      value: Math.round((moves / count) * 10) / 10,
      unit: 'moves',
      note: `constructive ${(cmoves / count).toFixed(1)} (${((1 - moves / cmoves) * 100).toFixed(0)}% more); bound ${(bound / count).toFixed(1)}`,
    });
    rows.push({
      name: `hybrid ${shape} CPU per board`,
      value: Math.round(sum / count) / 1000,
      unit: 's',
      target: '≤ 10 (limit)',
      note: `max ${(max / 1000).toFixed(2)} s; tables ${(tableMs / 1000).toFixed(2)} s once per shape`,
    });
  }
  return rows;
};
