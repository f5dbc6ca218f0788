/**
 * The body of a table build thread (build-on-thread.ts): builds one pattern database, says how far it has
 * got about every quarter second, writes it into the store (temporary file, then rename) and reports done.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { buildPatternDbSteps } from '../sliding/pdb-build.ts';
import { pdbFileName, savePdb } from '../sliding/pdb-cache.ts';

/** What to build, and where. */
export interface TableJob {
  readonly rows: number;
  readonly cols: number;
  readonly tiles: readonly number[];
  readonly dir: string;
}

/** Progress (placements known of the table's length), then done or failed. */
export type TableReply =
  | { readonly type: 'progress'; readonly done: number; readonly total: number }
  | { readonly type: 'done' }
  | { readonly type: 'failed'; readonly error: string };

const PROGRESS_EVERY_MS = 250;

/**
 * The build of one table, in slices that say how far it has got. Patterns of up to 7 tiles: pdb-build.ts.
 * A builder for bigger patterns (the 8-tile pattern of the 4×4's 7-8 partition) goes here, chosen by the
 * pattern's size, with the same progress; bot-assets.ts's schema then allows 8 tiles.
 */
function stepsOf(job: TableJob): Generator<{ readonly done: number; readonly total: number }, Uint8Array, void> {
  return buildPatternDbSteps(job.rows, job.cols, job.tiles);
}

const port = parentPort;
if (port) {
  const job = workerData as TableJob;
  const say = (m: TableReply): void => port.postMessage(m);
  try {
    const steps = stepsOf(job);
    let last = 0;
    let table: Uint8Array;
    for (;;) {
      const r = steps.next();
      if (r.done) {
        table = r.value;
        break;
      }
      const now = Date.now();
      if (now - last >= PROGRESS_EVERY_MS) {
        last = now;
        say({ type: 'progress', done: r.value.done, total: r.value.total });
      }
    }
    savePdb(job.dir, job.rows, job.cols, job.tiles, table);
    // Readable by every bot's uid whatever the umask: confined bots run as uids of their own.
    chmodSync(join(job.dir, pdbFileName(job.rows, job.cols, job.tiles)), 0o644);
    say({ type: 'done' });
  } catch (e) {
    say({ type: 'failed', error: e instanceof Error ? e.message : String(e) });
  }
}
