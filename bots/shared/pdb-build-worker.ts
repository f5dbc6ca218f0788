/**
 * The body of a bot's pattern-database build thread (pdb-loader.ts): builds the missing tables of one
 * partition into the cache, saying how it goes, then reports done; the main thread reads them from the cache.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadOrBuildPdbSet } from '../../src/solvers/sliding/pdb-set.ts';

/** What to build. */
export interface BuildRequest {
  readonly rows: number;
  readonly cols: number;
  readonly partition: readonly (readonly number[])[];
  readonly dir: string;
}

/** Progress lines, then done or failed. */
export type BuildReply = { readonly type: 'log'; readonly line: string } | { readonly type: 'done' } | { readonly type: 'failed'; readonly error: string };

const port = parentPort;
if (port) {
  const req = workerData as BuildRequest;
  const say = (m: BuildReply): void => port.postMessage(m);
  try {
    await loadOrBuildPdbSet(req.rows, req.cols, req.partition, { dir: req.dir, log: (line) => say({ type: 'log', line }) });
    say({ type: 'done' });
  } catch (e) {
    say({ type: 'failed', error: e instanceof Error ? e.message : String(e) });
  }
}
