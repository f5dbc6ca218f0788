import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRootOf } from '../../runtime/source-tree.ts';
import { loadPdb, pdbFileName, savePdb } from '../sliding/pdb-cache.ts';
import { Worker } from 'node:worker_threads';
import { placements } from '../sliding/pdb-rank.ts';
import { newLayerState, regionSetBytes } from '../sliding/pdb-layer-bfs.ts';
import type { LayerProgress, LayerState } from '../sliding/pdb-layer-bfs.ts';
import type { LayerJob, LayerReply, LayerWorkerData } from './layer-build-worker.ts';

/** Placements per chunk a thread takes at a time (one work unit; progress is reported per chunk). */
export const LAYER_CHUNK = 1 << 20;

/** How a threaded layered build runs. */
export interface LayerBuildOptions {
  /** Worker threads expanding each layer (default 2). */
  readonly threads?: number;
  /** Called after every chunk: placements whose depth is known so far, of all. */
  readonly onProgress?: (p: LayerProgress) => void;
  /**
   * Checkpoint file: at a layer's end, at most once per `checkpointEveryMs`, the search's arrays are written
   * here (a temporary file, then renamed), and a build that finds one for the same pattern resumes from it.
   * Removed when the build completes.
   */
  readonly checkpoint?: string;
  readonly checkpointEveryMs?: number;
  /** Stops the build at the next layer's end (after its checkpoint, if one is due); the promise rejects. */
  readonly signal?: AbortSignal;
}

/** What a checkpoint says about itself (its `.json` companion); the arrays are the binary file. */
interface CheckpointHead {
  readonly rows: number;
  readonly cols: number;
  readonly tiles: readonly number[];
  readonly level: number;
  readonly done: number;
  readonly bytes: number;
}

/** The arrays a checkpoint holds, in file order: the depth table, the seen sets, the current layer. */
function checkpointParts(state: LayerState, level: number): Uint8Array[] {
  const asBytes = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  return [asBytes(state.depth), asBytes(state.seen), asBytes(state.sets[level & 1])];
}

function writeCheckpoint(file: string, head: CheckpointHead, parts: Uint8Array[]): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    for (const p of parts) for (let off = 0; off < p.length; ) off += writeSync(fd, p, off, Math.min(1 << 30, p.length - off));
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  writeFileSync(`${file}.json`, JSON.stringify(head));
}

/** Loads a matching checkpoint into `state`; returns its level and count, or null (none, or another build's). */
function readCheckpoint(file: string, want: Omit<CheckpointHead, 'level' | 'done'>, state: LayerState): { level: number; done: number } | null {
  if (!existsSync(file) || !existsSync(`${file}.json`)) return null;
  let head: CheckpointHead;
  try {
    head = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as CheckpointHead;
  } catch {
    return null;
  }
  if (head.rows !== want.rows || head.cols !== want.cols || head.tiles.join() !== want.tiles.join() || head.bytes !== want.bytes) return null;
  const parts = checkpointParts(state, head.level);
  const fd = openSync(file, 'r');
  try {
    for (const p of parts) {
      for (let off = 0; off < p.length; ) {
        const got = readSync(fd, p, off, Math.min(1 << 30, p.length - off), null);
        if (got === 0) return null; // truncated: start afresh (the arrays are re-seeded by the caller)
        off += got;
      }
    }
  } finally {
    closeSync(fd);
  }
  return { level: head.level, done: head.done };
}

/**
 * Builds one pattern's table with the layered search (pdb-layer-bfs.ts) on worker threads sharing its
 * arrays: each layer is cut into chunks the threads take in turn; the main thread only waits, clears the
 * finished layer and checkpoints. The result is byte-identical to pdb-build.ts's table.
 */
export async function buildLayeredInThreads(rows: number, cols: number, tiles: readonly number[], opts: LayerBuildOptions = {}): Promise<Uint8Array> {
  const n = rows * cols;
  const total = placements(n, tiles.length);
  const bytes = total * (1 + 3 * regionSetBytes(n, tiles.length));
  let state = newLayerState(rows, cols, tiles, true);
  let level = 0;
  let done = 1;
  const want = { rows, cols, tiles: [...tiles], bytes };
  if (opts.checkpoint) {
    const resumed = readCheckpoint(opts.checkpoint, want, state);
    if (resumed) ({ level, done } = resumed);
    else state = newLayerState(rows, cols, tiles, true);
  }
  const counter = new Int32Array(new SharedArrayBuffer(4));
  const data: LayerWorkerData = { rows, cols, tiles: [...tiles], state, counter, chunk: LAYER_CHUNK };
  const threads = Math.max(1, opts.threads ?? 2);
  // Found from the checkout, not this module's URL: bundled into dist/, this code is not beside its boot file.
  const boot = pathToFileURL(join(projectRootOf(import.meta.url), 'src', 'solvers', 'tables', 'layer-build-boot.mjs'));
  const workers = Array.from({ length: threads }, () => new Worker(boot, { workerData: data }));
  let lastCheckpoint = Date.now();
  try {
    for (;;) {
      if (level >= 255) throw new Error('pattern database depth overflow');
      counter[0] = 0;
      let queued = 0;
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve, reject) => {
              const onMessage = (m: LayerReply): void => {
                if (m.type === 'chunk') {
                  done += m.settled;
                  opts.onProgress?.({ depth: level + 1, done, total });
                  return;
                }
                w.off('message', onMessage);
                w.off('error', reject);
                if (m.type === 'failed') reject(new Error(m.error));
                else {
                  queued += m.queued;
                  resolve();
                }
              };
              w.on('message', onMessage);
              w.once('error', reject);
              const job: LayerJob = { level };
              w.postMessage(job);
            }),
        ),
      );
      state.sets[level & 1].fill(0);
      level++;
      if (queued === 0) break;
      if (opts.checkpoint && Date.now() - lastCheckpoint >= (opts.checkpointEveryMs ?? 120_000)) {
        writeCheckpoint(opts.checkpoint, { ...want, level, done }, checkpointParts(state, level));
        lastCheckpoint = Date.now();
      }
      opts.signal?.throwIfAborted();
    }
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  if (opts.checkpoint) {
    rmSync(opts.checkpoint, { force: true });
    rmSync(`${opts.checkpoint}.json`, { force: true });
  }
  return state.depth;
}

/**
 * Builds every missing table of `partition` with {@link buildLayeredInThreads} into the cache `dir` (each
 * saved whole, through a temporary file, when done; a checkpoint beside it while it builds), the smallest
 * first. `onProgress` sees placements done over the whole set.
 */
export async function buildLayeredSet(
  rows: number,
  cols: number,
  partition: readonly (readonly number[])[],
  dir: string,
  opts: Omit<LayerBuildOptions, 'checkpoint'> & { readonly log?: (line: string) => void } = {},
): Promise<void> {
  const n = rows * cols;
  const todo = [...partition].filter((tiles) => !loadPdb(dir, rows, cols, tiles)).sort((a, b) => a.length - b.length);
  const grand = todo.reduce((s, t) => s + placements(n, t.length), 0);
  let before = 0;
  for (const tiles of todo) {
    const t0 = Date.now();
    opts.log?.(`building pattern database {${tiles.join(',')}} for ${rows}x${cols} into ${dir}`);
    mkdirSync(dir, { recursive: true });
    const table = await buildLayeredInThreads(rows, cols, tiles, {
      ...opts,
      checkpoint: join(dir, `${pdbFileName(rows, cols, tiles)}.checkpoint`),
      onProgress: (p) => opts.onProgress?.({ depth: p.depth, done: before + p.done, total: grand }),
    });
    savePdb(dir, rows, cols, tiles, table);
    before += table.length;
    opts.log?.(`  {${tiles.join(',')}}: done in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${table.length} entries`);
  }
}
