/**
 * Builds one table of a prepared asset on a worker thread of its own, so several build at once (one per
 * core) while the main thread draws the progress and listens for Ctrl-C. Aborting terminates the thread at
 * once: its table was not yet renamed into place, so nothing half-built is ever taken for a table.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { projectRootOf } from '../../runtime/source-tree.ts';
import type { TablePart } from './table-parts.ts';
import type { TableJob, TableReply } from './table-thread.ts';

/**
 * Builds `part` into `dir`. `progress(done, total)`: placements known so far. Resolves ok once the table is
 * in place, `interrupted` when `signal` aborted it, `build` with the reason when it failed.
 */
export function buildPartOnThread(part: TablePart, dir: string, progress: (done: number, total: number) => void, signal?: AbortSignal): Promise<Result<void>> {
  if (signal?.aborted) return Promise.resolve(reject('interrupted', 'interrupted before it started'));
  // The thread always runs from the source through tsx (its boot registers it), bundled CLI or not: the
  // build takes seconds to minutes, loading TypeScript a fraction of a second.
  const boot = pathToFileURL(join(projectRootOf(import.meta.url), 'src', 'solvers', 'tables', 'table-boot.mjs'));
  const job: TableJob = { rows: part.rows, cols: part.cols, tiles: part.tiles, dir };
  return new Promise((resolve) => {
    let settled = false;
    const worker = new Worker(boot, { workerData: job });
    const settle = (r: Result<void>): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const onAbort = (): void => {
      settle(reject('interrupted', 'interrupted'));
      void worker.terminate();
    };
    signal?.addEventListener('abort', onAbort);
    worker.on('message', (m: TableReply) => {
      if (m.type === 'progress') progress(m.done, m.total);
      else if (m.type === 'done') settle(ok(undefined));
      else settle(reject('build', m.error));
    });
    worker.on('error', (e) => settle(reject('build', e.message)));
    worker.on('exit', (code) => settle(reject('build', `the build thread exited with code ${code} before its table was written`)));
  });
}
