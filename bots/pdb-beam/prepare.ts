/**
 * Builds the 5×5 pattern databases (6-6-6-6: two tables of 127,512,000 bytes) once into the cache, so the
 * pdb-beam bot and the referee's 5×5 bound find them ready: `node --import tsx bots/pdb-beam/prepare.ts`.
 * About five minutes of CPU per table, the two on two threads at once, and about 0.8 GB of memory per
 * thread while it builds; not run at install. ARENA_CACHE_DIR moves the cache.
 */
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { loadPdbSet, PARTITION_5X5, partitionBytes } from '../../src/solvers/sliding/pdb-set.ts';
import { buildTablesInParallel } from '../shared/build-tables.ts';

const dir = defaultCacheDir();
const say = (line: string): void => void process.stderr.write(`pdb-beam: ${line}\n`);
if (loadPdbSet(5, 5, PARTITION_5X5, dir)) {
  say(`5x5 pattern databases already in ${dir}`);
} else {
  const t0 = performance.now();
  say(`building the 5x5 pattern databases once into ${dir} (${(partitionBytes(5, 5, PARTITION_5X5) / 1e6).toFixed(0)} MB)`);
  if (await buildTablesInParallel(5, 5, PARTITION_5X5, dir, say)) say(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  else {
    say('could not build the 5x5 pattern databases');
    process.exitCode = 1;
  }
}
