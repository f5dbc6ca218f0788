/**
 * The files of a prepared asset (`arena prepare`): each is one pattern database of a sliding board, written
 * whole into the shared asset store (the pattern-database cache, pdb-cache.ts) by a temporary file and a
 * rename, so a file with a table's name is a finished table. A part counts as present when its file has
 * exactly the table's length (a cheap stat, for a match's start) and as intact when its checksum holds too
 * (what `arena prepare` checks before it keeps a part instead of building it again).
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadPdb, pdbFileBytes, pdbFileName } from '../sliding/pdb-cache.ts';
import { placements } from '../sliding/pdb-rank.ts';
import { sharePatternTables } from '../sliding/pdb-symmetry.ts';

/** One table to build: a pattern of `tiles` on a rows×cols board, stored as `file` of `bytes` bytes. */
export interface TablePart {
  readonly rows: number;
  readonly cols: number;
  readonly tiles: readonly number[];
  readonly file: string;
  readonly bytes: number;
  /** Placements the build visits (the table's length): what its progress counts up to. */
  readonly entries: number;
}

/** The tables a partition needs (a pattern read through a symmetry of another needs none of its own). */
export function partsOf(rows: number, cols: number, partition: readonly (readonly number[])[]): TablePart[] {
  return sharePatternTables(rows, cols, partition)
    .filter((p, i) => p.source === i)
    .map((p) => ({
      rows,
      cols,
      tiles: p.tiles,
      file: pdbFileName(rows, cols, p.tiles),
      bytes: pdbFileBytes(rows * cols, p.tiles.length),
      entries: placements(rows * cols, p.tiles.length),
    }));
}

/** True when the part's file is there with exactly its length (no hash: cheap enough for every match start). */
export function partPresent(dir: string, part: TablePart): boolean {
  try {
    const st = statSync(join(dir, part.file));
    return st.isFile() && st.size === part.bytes;
  } catch {
    return false;
  }
}

/** True when the part's file is there and reads back whole: header, length and checksum. */
export function partIntact(dir: string, part: TablePart): boolean {
  return loadPdb(dir, part.rows, part.cols, part.tiles) !== null;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Removes the temporary files of builds whose process is gone (a build killed while writing leaves its
 * `<table>.<pid>.<ms>.tmp`): they never count as tables, but they hold disk. Says how many it removed.
 */
export function removeStaleTemps(dir: string): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const m = /\.pdb\.(\d+)\.\d+\.tmp$/.exec(name);
    if (!m || alive(Number(m[1]))) continue;
    rmSync(join(dir, name), { force: true });
    removed++;
  }
  return removed;
}
