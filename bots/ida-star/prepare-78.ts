/**
 * Builds the 4×4 7-8 pattern databases (pdb-set.ts's PARTITION_4X4_78, 577 MB) into the cache, on two
 * threads, with a progress line on stderr; ida-star and the oracle use them once they are there. Interrupted
 * (Ctrl-C), it resumes from its last checkpoint (written every two minutes at a layer's end) when run again.
 * `node --import tsx bots/ida-star/prepare-78.ts [--threads N]`; `arena prepare ida-star` will call the same.
 */
import { availableParallelism } from 'node:os';
import { defaultCacheDir } from '../../src/solvers/sliding/pdb-cache.ts';
import { loadPdbSet, PARTITION_4X4_78 } from '../../src/solvers/sliding/pdb-set.ts';
import { buildLayeredSet } from '../../src/solvers/tables/layer-build.ts';

const dir = defaultCacheDir();
const say = (line: string): void => void process.stderr.write(`ida-star: ${line}\n`);
const at = process.argv.indexOf('--threads');
const threads = at > 0 ? Number(process.argv[at + 1]) : Math.min(2, availableParallelism());
if (!Number.isInteger(threads) || threads < 1) {
  say('--threads takes a positive integer');
  process.exit(2);
}
if (loadPdbSet(4, 4, PARTITION_4X4_78, dir)) {
  say(`4x4 7-8 pattern databases already in ${dir}`);
} else {
  const t0 = performance.now();
  let last = 0;
  await buildLayeredSet(4, 4, PARTITION_4X4_78, dir, {
    threads,
    log: say,
    onProgress: ({ depth, done, total }) => {
      const now = performance.now();
      if (now - last < 5000) return;
      last = now;
      say(`  depth ${depth}, ${((100 * done) / total).toFixed(1)}% of placements, ${((now - t0) / 1000).toFixed(0)} s`);
    },
  });
  say(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}
