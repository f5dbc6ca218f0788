import { buildPatternDbSteps } from './pdb-build.ts';
import { loadPdb, savePdb } from './pdb-cache.ts';
import type { PatternTable } from './pdb-heuristic.ts';
import { placements } from './pdb-rank.ts';
import { sharePatternTables } from './pdb-symmetry.ts';

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

/**
 * The 4×4 7-8 partition (Korf & Felner's, turned 180° for our goal with the blank last): tiles 1–8, the top
 * two rows, and 9–15, the bottom two rows beside the blank's home. With the reflection lookup about 37
 * thousand nodes per Korf instance in their paper, against 617 thousand for 6-6-3. Tables: 518,918,400 +
 * 57,657,600 bytes ≈ 577 MB, built by the layered search (pdb-layer-bfs.ts) on threads, never at install
 * (`node --import tsx bots/ida-star/prepare-78.ts`); the bots use it when it is in the cache.
 */
export const PARTITION_4X4_78: readonly (readonly number[])[] = [
  [1, 2, 3, 4, 5, 6, 7, 8],
  [9, 10, 11, 12, 13, 14, 15],
];

/**
 * The 5×5 partition: 6-6-6-6, Korf & Felner's 24-puzzle split turned 180° for our goal (blank last): three
 * 2×3 blocks along the edges (top-left, top-right, bottom-left) and the six tiles around the blank's home.
 * The three blocks are one table read through rotations (pdb-symmetry.ts), so two tables are built:
 * 2 × 127,512,000 bytes ≈ 255 MB, built once into the cache (a few minutes), never at install.
 */
export const PARTITION_5X5: readonly (readonly number[])[] = [
  [1, 2, 3, 6, 7, 8],
  [4, 5, 9, 10, 14, 15],
  [11, 12, 16, 17, 21, 22],
  [13, 18, 19, 20, 23, 24],
];

/** The partition used for an R×C board, if any. */
export function partitionFor(rows: number, cols: number): readonly (readonly number[])[] | null {
  if (rows === 4 && cols === 4) return PARTITION_4X4;
  if (rows === 5 && cols === 5) return PARTITION_5X5;
  return null;
}

/** Bytes of the tables a partition builds (patterns read through a symmetry cost nothing). */
export function partitionBytes(rows: number, cols: number, partition: readonly (readonly number[])[]): number {
  return sharePatternTables(rows, cols, partition).reduce((s, p, i) => s + (p.source === i ? placements(rows * cols, p.tiles.length) : 0), 0);
}

/** Where the tables live and whom to tell about a build. */
export interface PdbSetOptions {
  readonly dir: string;
  /** Progress lines (the bot sends them to stderr). */
  readonly log?: (line: string) => void;
  /** Called between build slices; a bot awaits an event-loop turn here so it stays responsive. */
  readonly pause?: () => Promise<void>;
}

/** The set's tables, each pattern read from its own table or, through a symmetry, from another's. */
function assemble(rows: number, cols: number, partition: readonly (readonly number[])[], built: (Uint8Array | null)[]): PatternTable[] {
  return sharePatternTables(rows, cols, partition).map((p) => ({
    tiles: p.tiles,
    table: built[p.source]!,
    ...(p.cellMap ? { cellMap: p.cellMap } : {}),
  }));
}

/** Loads every table of `partition` from the cache; null unless all are present and intact. */
export function loadPdbSet(rows: number, cols: number, partition: readonly (readonly number[])[], dir: string): PatternTable[] | null {
  const sources = sharePatternTables(rows, cols, partition);
  const built: (Uint8Array | null)[] = [];
  for (const [i, p] of sources.entries()) {
    built.push(p.source === i ? loadPdb(dir, rows, cols, p.tiles) : null);
    if (p.source === i && !built[i]) return null;
  }
  return assemble(rows, cols, partition, built);
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
  const sources = sharePatternTables(rows, cols, partition);
  const built: (Uint8Array | null)[] = [];
  for (const [i, p] of sources.entries()) {
    built.push(p.source === i ? await loadOrBuildPdb(rows, cols, p.tiles, opts) : null);
  }
  return assemble(rows, cols, partition, built);
}

/** One pattern's table from the cache, or built and cached. */
export async function loadOrBuildPdb(rows: number, cols: number, tiles: readonly number[], opts: PdbSetOptions): Promise<Uint8Array> {
  const cached = loadPdb(opts.dir, rows, cols, tiles);
  if (cached) return cached;
  const t0 = Date.now();
  opts.log?.(`building pattern database {${tiles.join(',')}} for ${rows}x${cols} (once; cached in ${opts.dir})`);
  const steps = buildPatternDbSteps(rows, cols, tiles);
  let lastLog = t0;
  let table: Uint8Array;
  for (;;) {
    const r = steps.next();
    if (r.done) {
      table = r.value;
      break;
    }
    const now = Date.now();
    if (now - lastLog >= 3000) {
      lastLog = now;
      opts.log?.(`  {${tiles.join(',')}}: depth ${r.value.depth}, ${((100 * r.value.done) / r.value.total).toFixed(1)}% of placements`);
    }
    if (opts.pause) await opts.pause();
  }
  savePdb(opts.dir, rows, cols, tiles, table);
  opts.log?.(`  {${tiles.join(',')}}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${table.length} entries`);
  return table;
}
