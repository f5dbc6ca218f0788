import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { loadPdbSet } from '../../src/solvers/sliding/pdb-set.ts';
import { sharePatternTables } from '../../src/solvers/sliding/pdb-symmetry.ts';
import type { BuildReply, BuildRequest } from './pdb-build-worker.ts';

/**
 * Builds the missing tables of a partition into the cache, one worker thread per table and as many at once
 * as there are cores (the install-time build: the two 6-tile 4×4 tables in parallel take the time of one).
 * Resolves true when the whole set then loads from the cache.
 */
export async function buildTablesInParallel(
  rows: number,
  cols: number,
  partition: readonly (readonly number[])[],
  dir: string,
  log: (line: string) => void,
  threads = availableParallelism(),
): Promise<boolean> {
  const todo = sharePatternTables(rows, cols, partition)
    .filter((p, i) => p.source === i)
    .map((p) => p.tiles);
  const one = (tiles: readonly number[]): Promise<void> =>
    new Promise((resolve) => {
      const req: BuildRequest = { rows, cols, partition: [tiles], dir };
      const worker = new Worker(new URL('./pdb-build-boot.mjs', import.meta.url), { workerData: req });
      worker.on('message', (m: BuildReply) => {
        if (m.type === 'log') log(m.line);
        else if (m.type === 'failed') log(`{${tiles.join(',')}} failed: ${m.error}`);
      });
      worker.on('error', (e) => log(`{${tiles.join(',')}} failed: ${e.message}`));
      worker.on('exit', () => resolve());
    });
  const running: Promise<void>[] = [];
  for (let next = 0; next < Math.max(1, threads); next++) {
    running.push(
      (async () => {
        for (let t = next; t < todo.length; t += Math.max(1, threads)) await one(todo[t]);
      })(),
    );
  }
  await Promise.all(running);
  return loadPdbSet(rows, cols, partition, dir) !== null;
}
