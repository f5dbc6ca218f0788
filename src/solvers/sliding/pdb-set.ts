import { buildPatternDbSteps } from './pdb-build.ts';
import { loadPdb, savePdb } from './pdb-cache.ts';
import type { PatternTable } from './pdb-heuristic.ts';

/**
 * The 4×4 partition: 6-6-3 (Korf & Felner's shape, adapted to our goal with the blank last). The two
 * 6-tile patterns are the left and the right-bottom blocks, the 3-tile pattern the rest of the top row;
 * the transpose maps the left block onto the top, so the reflected lookup sees a genuinely different split.
 * Tables: 2 × 5,765,760 + 3,360 bytes ≈ 11.5 MB.
 */
export const PARTITION_4X4: readonly (readonly number[])[] = [
  [1, 5, 6, 9, 10, 13],
  [7, 8, 11, 12, 14, 15],
  [2, 3, 4],
];

/** Where the tables live and whom to tell about a build. */
export interface PdbSetOptions {
  readonly dir: string;
  /** Progress lines (the bot sends them to stderr). */
  readonly log?: (line: string) => void;
  /** Called between build slices; a bot awaits an event-loop turn here so it stays responsive. */
  readonly pause?: () => Promise<void>;
}

/** Loads every table of `partition` from the cache; null unless all are present and intact. */
export function loadPdbSet(rows: number, cols: number, partition: readonly (readonly number[])[], dir: string): PatternTable[] | null {
  const out: PatternTable[] = [];
  for (const tiles of partition) {
    const table = loadPdb(dir, rows, cols, tiles);
    if (!table) return null;
    out.push({ tiles, table });
  }
  return out;
}

/**
 * Loads the partition's tables, building (and caching) any that are missing or corrupt. The build runs in
 * slices with `pause()` between them and logs its progress every few seconds.
 */
export async function loadOrBuildPdbSet(
  rows: number,
  cols: number,
  partition: readonly (readonly number[])[],
  opts: PdbSetOptions,
): Promise<PatternTable[]> {
  const out: PatternTable[] = [];
  for (const tiles of partition) {
    let table = loadPdb(opts.dir, rows, cols, tiles);
    if (!table) {
      const t0 = Date.now();
      opts.log?.(`building pattern database {${tiles.join(',')}} for ${rows}x${cols} (once; cached in ${opts.dir})`);
      const steps = buildPatternDbSteps(rows, cols, tiles);
      let lastLog = t0;
      for (;;) {
        const r = steps.next();
        if (r.done) {
          table = r.value;
          break;
        }
        const now = Date.now();
        if (now - lastLog >= 3000) {
          lastLog = now;
          opts.log?.(`  {${tiles.join(',')}}: depth ${r.value.depth}, ${((100 * r.value.done) / r.value.total).toFixed(1)}% of states`);
        }
        if (opts.pause) await opts.pause();
      }
      savePdb(opts.dir, rows, cols, tiles, table);
      opts.log?.(`  {${tiles.join(',')}}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${table.length} entries`);
    }
    out.push({ tiles, table });
  }
  return out;
}
