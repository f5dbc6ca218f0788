/**
 * One thread of a layered pattern-database build (layer-build.ts): for each layer it is told about, takes
 * chunks of placements off the shared counter and expands them into the shared arrays until none are left.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { LayerExpander } from '../sliding/pdb-layer-bfs.ts';
import type { LayerState } from '../sliding/pdb-layer-bfs.ts';

/** What every thread of one build shares. */
export interface LayerWorkerData {
  readonly rows: number;
  readonly cols: number;
  readonly tiles: readonly number[];
  readonly state: LayerState;
  /** Next chunk to take, reset to 0 by the main thread before each layer. */
  readonly counter: Int32Array;
  readonly chunk: number;
}

/** Expand this layer. */
export interface LayerJob {
  readonly level: number;
}

/** Per chunk, placements first reached; at the layer's end, states queued for the next. */
export type LayerReply =
  | { readonly type: 'chunk'; readonly settled: number }
  | { readonly type: 'layer'; readonly queued: number }
  | { readonly type: 'failed'; readonly error: string };

const port = parentPort;
if (port) {
  const data = workerData as LayerWorkerData;
  const bfs = new LayerExpander(data.rows, data.cols, data.tiles, data.state);
  port.on('message', (job: LayerJob) => {
    try {
      const before = bfs.queued;
      for (;;) {
        const lo = Atomics.add(data.counter, 0, 1) * data.chunk;
        if (lo >= bfs.total) break;
        const settled = bfs.expand(job.level, lo, Math.min(bfs.total, lo + data.chunk));
        port.postMessage({ type: 'chunk', settled } satisfies LayerReply);
      }
      port.postMessage({ type: 'layer', queued: bfs.queued - before } satisfies LayerReply);
    } catch (e) {
      port.postMessage({ type: 'failed', error: e instanceof Error ? e.message : String(e) } satisfies LayerReply);
    }
  });
}
