/**
 * Building pattern databases from scratch into a temporary cache: the 4×4 set as `npm ci` does it (the two
 * 6-tile tables on two threads) and one 6-tile table on this thread alone. Wall and CPU time (CPU is the
 * steadier figure on a shared machine; the load average is in the note). The 5×5 set takes minutes:
 * `--only pdb-build-5x5`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPatternDb } from '../src/solvers/sliding/pdb-build.ts';
import { PARTITION_4X4, partitionBytes } from '../src/solvers/sliding/pdb-set.ts';
import { buildTablesInParallel } from '../bots/shared/build-tables.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const cpuS = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

/** Builds a shape's set on parallel threads into a fresh directory; one row. */
export async function timeSetBuild(rows: number, cols: number, partition: readonly (readonly number[])[]): Promise<BenchRow> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pdb-'));
  try {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const ok = await buildTablesInParallel(rows, cols, partition, dir, () => {});
    if (!ok) throw new Error(`${rows}x${cols} build failed`);
    return {
      name: `pattern databases ${rows}x${cols} ${partition.map((p) => p.length).join('-')}, build on parallel threads`,
      value: (performance.now() - t0) / 1000,
      unit: 's',
      target: rows === 4 ? '≤ 30' : undefined,
      note: `${cpuS(c0).toFixed(1)} s CPU; ${(partitionBytes(rows, cols, partition) / 1e6).toFixed(1)} MB; load ${loadavg()[0].toFixed(1)}`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const bench: BenchSuite = async () => {
  const out: BenchRow[] = [await timeSetBuild(4, 4, PARTITION_4X4)];
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  buildPatternDb(4, 4, PARTITION_4X4[0]);
  out.push({
    name: 'pattern database 4x4 one 6-tile table, this thread',
    value: (performance.now() - t0) / 1000,
    unit: 's',
    note: `${cpuS(c0).toFixed(1)} s CPU (the builder before the region search: ~27 s); load ${loadavg()[0].toFixed(1)}`,
  });
  return out;
};

