/**
 * Builds the 5×5 pattern databases (6-6-6-6: two tables of 127,512,000 bytes) once into the cache, so the
 * pdb-beam bot and the referee's 5×5 bound find them ready: `node --import tsx bots/pdb-beam/prepare.ts`.
 * A few minutes of CPU and about 0.8 GB of memory while it builds; not run at install. ARENA_CACHE_DIR
 * moves the cache.
 */
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { loadOrBuildPdbSet, loadPdbSet, PARTITION_5X5, partitionBytes } from '../../src/solvers/sliding/pdb-set.ts';

const dir = defaultCacheDir();
const say = (line: string): void => void process.stderr.write(`pdb-beam: ${line}\n`);
if (loadPdbSet(5, 5, PARTITION_5X5, dir)) {
  say(`5x5 pattern databases already in ${dir}`);
} else {
  const t0 = performance.now();
  say(`building the 5x5 pattern databases once into ${dir} (${(partitionBytes(5, 5, PARTITION_5X5) / 1e6).toFixed(0)} MB)`);
  try {
    await loadOrBuildPdbSet(5, 5, PARTITION_5X5, { dir, log: say });
    say(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } catch (e) {
    say(`could not build the 5x5 pattern databases: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
