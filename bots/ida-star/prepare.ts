/**
 * Builds the 4×4 pattern databases into the cache at install time (`npm ci` runs it as postinstall), so the
 * first match and the tests find them ready instead of paying ~40 s inside a time limit. Never fails the
 * install: without tables the bot still works (it builds them lazily, in the background).
 * Set ARENA_SKIP_PDB=1 to skip.
 */
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { loadOrBuildPdbSet, loadPdbSet, PARTITION_4X4 } from '../../src/solvers/sliding/pdb-set.ts';

const dir = defaultCacheDir();
if (process.env.ARENA_SKIP_PDB === '1') {
  process.stderr.write('ida-star: ARENA_SKIP_PDB=1, not building pattern databases\n');
} else if (loadPdbSet(4, 4, PARTITION_4X4, dir)) {
  process.stderr.write(`ida-star: 4x4 pattern databases already in ${dir}\n`);
} else {
  const t0 = performance.now();
  process.stderr.write(`ida-star: building 4x4 pattern databases once into ${dir} (about 40 s on one core)\n`);
  try {
    await loadOrBuildPdbSet(4, 4, PARTITION_4X4, { dir, log: (l) => process.stderr.write(`ida-star: ${l}\n`) });
    process.stderr.write(`ida-star: done in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  } catch (e) {
    process.stderr.write(`ida-star: could not build pattern databases (${(e as Error).message}); the bot will build them on first use\n`);
  }
}
