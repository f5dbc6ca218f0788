import { accessSync, constants, mkdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { PatternTable } from '../../src/solvers/sliding/pdb-heuristic.ts';
import { loadPdbSet, PARTITION_4X4 } from '../../src/solvers/sliding/pdb-set.ts';
import type { BuildRequest, BuildReply } from './pdb-build-worker.ts';

/** True when tables can be saved into `dir` (made if missing): false in a sandbox, where it is read-only. */
function writable(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * A bot's lazy handle on one board shape's pattern databases (4×4 by default). The first request reads them
 * from the disk cache (milliseconds for 4×4, about a second for the 255 MB of 5×5); when they are missing it
 * starts building them on a worker thread, which caches them, and answers null until they are ready, so
 * that solve uses its fallback heuristic instead of missing its deadline while the main thread stays free
 * for the referee. The build happens once per cache directory, and only where the bot may write it: a
 * confined bot sees the store read-only (`arena prepare` fills it), so it plays without the tables instead
 * of building them for nothing.
 */
export class PdbLoader {
  private tables: PatternTable[] | null = null;
  private started = false;
  private building: Promise<void> | null = null;

  constructor(
    private readonly dir: string,
    private readonly log: (line: string) => void,
    private readonly rows = 4,
    private readonly cols = 4,
    private readonly partition: readonly (readonly number[])[] = PARTITION_4X4,
    /** False: never build, only read the cache (null until then). */
    private readonly build = true,
    /** A stronger partition used instead when its tables are in the cache (never built here: too big). */
    private readonly stronger?: readonly (readonly number[])[],
  ) {}

  /** The tables if ready; the first call starts loading or building them. */
  get(): PatternTable[] | null {
    if (!this.started) {
      this.started = true;
      this.tables = (this.stronger && loadPdbSet(this.rows, this.cols, this.stronger, this.dir)) || loadPdbSet(this.rows, this.cols, this.partition, this.dir);
      const shape = `${this.rows}x${this.cols}`;
      if (this.tables && this.stronger && this.tables.length === this.stronger.length) this.log(`${shape}: the stronger pattern databases are in the cache, using them`);
      if (this.tables) return this.tables;
      if (!this.build) this.log(`no ${shape} pattern databases in ${this.dir}; not building them (--no-build)`);
      // Confined, the store is read-only: a build could not be kept, so it would only cost the match a core.
      else if (!writable(this.dir)) this.log(`no ${shape} pattern databases in ${this.dir}, which this bot cannot write (confined); playing without them: arena prepare builds them`);
      else this.building = this.startBuild();
    }
    return this.tables;
  }

  /** Resolves when the tables are ready (or their build failed), or after `waitMs`, whichever comes first. */
  async ready(waitMs = Infinity): Promise<PatternTable[] | null> {
    this.get();
    if (this.building) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((r) => {
        if (Number.isFinite(waitMs)) timer = setTimeout(r, waitMs);
      });
      await Promise.race([this.building, timeout]);
      if (timer) clearTimeout(timer);
    }
    return this.tables;
  }

  private startBuild(): Promise<void> {
    const shape = `${this.rows}x${this.cols}`;
    return new Promise((resolve) => {
      const req: BuildRequest = { rows: this.rows, cols: this.cols, partition: this.partition, dir: this.dir };
      const worker = new Worker(new URL('./pdb-build-boot.mjs', import.meta.url), { workerData: req });
      // The build must not keep a bot alive that the referee has told to go.
      worker.unref();
      const fail = (why: string): void => {
        this.log(`pattern database build failed, staying with the fallback heuristic: ${why}`);
        resolve();
      };
      worker.on('message', (m: BuildReply) => {
        if (m.type === 'log') this.log(m.line);
        else if (m.type === 'failed') fail(m.error);
        else {
          this.tables = loadPdbSet(this.rows, this.cols, this.partition, this.dir);
          if (this.tables) this.log(`${shape} pattern databases ready`);
          else fail('built, but not readable from the cache');
          resolve();
        }
      });
      worker.on('error', (e) => fail(e.message));
      worker.on('exit', (code) => {
        if (!this.tables && code !== 0) fail(`worker exited with code ${code}`);
      });
    });
  }
}
