/**
 * Builds one table of a prepared asset on a worker thread of its own, so several build at once (one per
 * core) while the main thread draws the progress and listens for Ctrl-C. Aborting terminates the thread at
 * once: its table was not yet renamed into place, so nothing half-built is ever taken for a table.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { projectRootOf } from '../../runtime/source-tree.ts';
import { pdbFileName, savePdb } from '../sliding/pdb-cache.ts';
import { buildLayeredInThreads } from './layer-build.ts';
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

/** Patterns of more tiles than this are built by the layered search on every build thread at once (layer-build.ts). */
export const LAYERED_FROM_TILES = 8;

/**
 * Builds a big `part` (8 tiles: 519 million placements, 2.1 GB while it builds) with the layered search on
 * `threads` threads sharing its arrays, checkpointed beside the table so an interrupted build resumes at its
 * last layer; the table is renamed into place whole. Resolves like {@link buildPartOnThread}.
 */
export async function buildBigPart(part: TablePart, dir: string, threads: number, progress: (done: number, total: number) => void, signal?: AbortSignal): Promise<Result<void>> {
  try {
    const table = await buildLayeredInThreads(part.rows, part.cols, part.tiles, {
      threads,
      checkpoint: join(dir, `${pdbFileName(part.rows, part.cols, part.tiles)}.checkpoint`),
      onProgress: (p) => progress(p.done, p.total),
      ...(signal ? { signal } : {}),
    });
    savePdb(dir, part.rows, part.cols, part.tiles, table);
    // Readable by every bot's uid whatever the umask, as the tables built on a thread (table-thread.ts).
    chmodSync(join(dir, pdbFileName(part.rows, part.cols, part.tiles)), 0o644);
    return ok(undefined);
  } catch (e) {
    if (signal?.aborted) return reject('interrupted', 'interrupted (its last checkpoint is kept: the next run resumes from it)');
    return reject('build', e instanceof Error ? e.message : String(e));
  }
}
