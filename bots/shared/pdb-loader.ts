import type { PatternTable } from '../../src/solvers/sliding/pdb-heuristic.ts';
import { loadOrBuildPdbSet, loadPdbSet, PARTITION_4X4 } from '../../src/solvers/sliding/pdb-set.ts';

/**
 * The bot's lazy handle on the 4×4 tables. The first request reads them from the disk cache (milliseconds);
 * when they are missing it starts building them in the background, in slices between event-loop turns, and
 * answers null until they are ready, so that solve falls back to Manhattan + linear conflict instead of
 * missing its deadline. The build happens once per cache directory.
 */
export class PdbLoader {
  private tables: PatternTable[] | null = null;
  private started = false;
  private building: Promise<void> | null = null;
  private readonly dir: string;
  private readonly log: (line: string) => void;

  constructor(dir: string, log: (line: string) => void) {
    this.dir = dir;
    this.log = log;
  }

  /** The tables if ready; the first call starts loading or building them. */
  get(): PatternTable[] | null {
    if (!this.started) {
      this.started = true;
      this.tables = loadPdbSet(4, 4, PARTITION_4X4, this.dir);
      if (!this.tables) this.building = this.build();
    }
    return this.tables;
  }

  /** Resolves when the tables are ready (or their build failed). */
  async ready(): Promise<PatternTable[] | null> {
    this.get();
    if (this.building) await this.building;
    return this.tables;
  }

  private async build(): Promise<void> {
    try {
      this.tables = await loadOrBuildPdbSet(4, 4, PARTITION_4X4, {
        dir: this.dir,
        log: this.log,
        pause: () => new Promise((r) => setImmediate(r)),
      });
      this.log('4x4 pattern databases ready');
    } catch (e) {
      this.log(`pattern database build failed, staying with manhattan+lc: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
