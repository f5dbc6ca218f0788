/**
 * Builds the 4×4 pattern databases into the cache at install time (`npm ci` runs it as postinstall), so the
 * first match and the tests find them ready instead of paying for them inside a time limit: the two 6-tile
 * tables on two threads at once. Never fails the install: without tables the bot still works (it builds
 * them on a thread at first use). Set ARENA_SKIP_PDB=1 to skip.
 */
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { loadPdbSet, PARTITION_4X4 } from '../../src/solvers/sliding/pdb-set.ts';
import { buildTablesInParallel } from '../shared/build-tables.ts';

const dir = defaultCacheDir();
const say = (line: string): void => void process.stderr.write(`ida-star: ${line}\n`);
if (process.env.ARENA_SKIP_PDB === '1') {
  say('ARENA_SKIP_PDB=1, not building pattern databases');
} else if (loadPdbSet(4, 4, PARTITION_4X4, dir)) {
  say(`4x4 pattern databases already in ${dir}`);
} else {
  const t0 = performance.now();
  say(`building 4x4 pattern databases once into ${dir} (11.5 MB)`);
  if (await buildTablesInParallel(4, 4, PARTITION_4X4, dir, say)) say(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  else say('could not build pattern databases; the bot will build them on first use');
}
