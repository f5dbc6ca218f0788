/**
 * ida-star: 15-puzzle states drawn uniformly (random permutation, parity fixed) from a fixed seed, each solved
 * optimally by IDA* with the 6-6-3 pattern databases and reflection, through the search ida-star runs
 * (PdbIdaSearch). Reports the PDB load/build time and memory, seconds per instance (mean, median, max), nodes
 * generated and nodes/s, by the wall clock and per CPU second (the machine is shared: the CPU figure is the
 * steadier one).
 */
import { createRng } from '../src/core/rng.ts';
import { sliding } from '../src/puzzles/sliding/index.ts';
import { makeBoard } from '../src/solvers/sliding/board.ts';
import { defaultCacheDir } from '../src/solvers/sliding/pdb-cache.ts';
import { PdbHeuristic } from '../src/solvers/sliding/pdb-heuristic.ts';
import { PdbIdaSearch } from '../src/solvers/sliding/pdb-ida-search.ts';
import { loadOrBuildPdbSet, PARTITION_4X4 } from '../src/solvers/sliding/pdb-set.ts';
import type { BenchRow, BenchSuite } from './types.ts';

export const bench: BenchSuite = async ({ quick }) => {
  const count = quick ? 10 : 100;
  const t0 = performance.now();
  const tables = await loadOrBuildPdbSet(4, 4, PARTITION_4X4, { dir: defaultCacheDir(), log: (l) => process.stderr.write(`${l}\n`) });
  const loadMs = performance.now() - t0;
  const bytes = tables.reduce((s, t) => s + t.table.length, 0);
  const board = makeBoard(4, 4);
  const h = new PdbHeuristic(board, tables);
  const rng = createRng('bench ida-star 15-puzzle');
  const secs: number[] = [];
  let nodes = 0;
  let lengths = 0;
  let searchMs = 0;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const s = sliding.scramble({ kind: 'sliding', rows: 4, cols: 4 }, rng);
    const t = performance.now();
    const search = new PdbIdaSearch(board, s.tiles, h);
    if (search.run(Number.MAX_SAFE_INTEGER) !== 'found') throw new Error('ida-star bench: no solution');
    const ms = performance.now() - t;
    searchMs += ms;
    secs.push(ms / 1000);
    nodes += search.nodes;
    lengths += search.solution().length;
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuS = (cpu.user + cpu.system) / 1e6;
  secs.sort((a, b) => a - b);
  const mean = secs.reduce((a, b) => a + b, 0) / count;
  const median = count % 2 ? secs[(count - 1) / 2] : (secs[count / 2 - 1] + secs[count / 2]) / 2;
  const note = `${count} uniform 15-puzzles, mean optimal length ${(lengths / count).toFixed(1)}`;
  const rows: BenchRow[] = [
    { name: 'ida-star 4x4 PDB 6-6-3 load or build', value: loadMs / 1000, unit: 's', note: `${(bytes / 1e6).toFixed(1)} MB of tables` },
    { name: 'ida-star 4x4 seconds per instance, mean', value: mean, unit: 's', target: '≤ 0.3', note },
    { name: 'ida-star 4x4 seconds per instance, median', value: median, unit: 's' },
    { name: 'ida-star 4x4 seconds per instance, max', value: secs[count - 1], unit: 's' },
    { name: 'ida-star 4x4 nodes generated per instance, mean', value: nodes / count, unit: 'nodes' },
    { name: 'ida-star 4x4 search speed', value: nodes / searchMs / 1000, unit: 'Mnodes/s', note: `wall clock; ${(nodes / cpuS / 1e6).toFixed(1)} M nodes per CPU second` },
  ];
  return rows;
};
