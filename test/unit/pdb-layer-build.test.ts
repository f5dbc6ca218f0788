import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildLayeredInThreads, buildLayeredSet } from '../../src/solvers/tables/layer-build.ts';
import { PdbLoader } from '../../bots/shared/pdb-loader.ts';
import { buildPatternDb, buildPatternDbSteps } from '../../src/solvers/sliding/pdb-build.ts';
import { buildLayered, checkLayerPattern } from '../../src/solvers/sliding/pdb-layer-bfs.ts';
import { defaultCacheDir, loadPdb, pdbFileName, SAMPLED_CHECK_BYTES, savePdb } from '../../src/solvers/sliding/pdb-cache.ts';
import { PARTITION_4X4 } from '../../src/solvers/sliding/pdb-set.ts';
import { naiveTable } from '../helpers/naive-pdb.ts';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'pdb-layer-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function runLayered(rows: number, cols: number, tiles: readonly number[]): Uint8Array {
  const steps = buildLayered(rows, cols, tiles);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** pdb-build.ts's table, built in slices with event-loop turns between (a 6-tile build blocks for a minute under load). */
async function buildYielding(tiles: readonly number[]): Promise<Uint8Array> {
  const steps = buildPatternDbSteps(4, 4, tiles);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

describe('pdb-layer-bfs', () => {
  it('pdb-layer-bfs - agrees with the naive 0-1 search on the 3×3 4-4 partition and other small patterns, on one thread and on two', async () => {
    for (const [rows, cols, tiles] of [
      [3, 3, [1, 2, 3, 4]],
      [3, 3, [5, 6, 7, 8]],
      [3, 3, [2, 4, 5]],
      [3, 4, [1, 5, 9]], // 9 free cells: 16-bit region sets
      [4, 4, [1, 2, 3]],
      [4, 4, [12, 15]], // walls the blank's home in at the goal
    ] as const) {
      const oracle = naiveTable(rows, cols, tiles);
      expect(same(runLayered(rows, cols, tiles), oracle), `${rows}x${cols} {${tiles.join(',')}} on one thread`).toBe(true);
      const threaded = await buildLayeredInThreads(rows, cols, tiles, { threads: 2 });
      expect(same(threaded, oracle), `${rows}x${cols} {${tiles.join(',')}} on two threads`).toBe(true);
    }
  }, 120_000);

  it('pdb-layer-bfs - builds the 4×4 6-6-3 tables byte for byte as the queue builder (pdb-build.ts) does, on two threads', async () => {
    for (const tiles of PARTITION_4X4) {
      // The queue builder's tables as `npm ci` cached them (checksummed when read), else built here.
      const ref = loadPdb(defaultCacheDir(), 4, 4, tiles) ?? (await buildYielding(tiles));
      const progress: number[] = [];
      const table = await buildLayeredInThreads(4, 4, tiles, { threads: 2, onProgress: (p) => progress.push(p.done) });
      expect(same(table, ref), `{${tiles.join(',')}}`).toBe(true);
      // Progress only grows, and ends with every placement known (all are reachable on 4×4).
      expect(progress.every((d, i) => i === 0 || d >= progress[i - 1]!)).toBe(true);
      expect(progress.at(-1)).toBe(ref.length);
    }
  }, 600_000);

  it('pdb-layer-bfs - refuses patterns it cannot build', () => {
    expect(() => checkLayerPattern(5, 5, [1, 2])).toThrow(RangeError);
    expect(() => checkLayerPattern(4, 4, [1, 2, 3, 4, 5, 6, 7, 8, 9])).toThrow(RangeError);
    expect(() => checkLayerPattern(3, 3, [1, 1])).toThrow(RangeError);
    expect(() => checkLayerPattern(3, 3, [9])).toThrow(RangeError);
  });
});

describe('layer-build', () => {
  it('layer-build - stopped after a checkpoint, a second build resumes from it and gives the same table', async () => {
    const dir = tempDir();
    const checkpoint = join(dir, 'five.checkpoint');
    const tiles = [1, 5, 6, 9, 10];
    const ref = buildPatternDb(4, 4, tiles);
    const stop = new AbortController();
    const first = buildLayeredInThreads(4, 4, tiles, {
      threads: 2,
      checkpoint,
      checkpointEveryMs: 0,
      signal: stop.signal,
      onProgress: (p) => {
        if (p.depth >= 10) stop.abort();
      },
    });
    await expect(first).rejects.toThrow();
    expect(existsSync(checkpoint)).toBe(true);
    let resumedAt = -1;
    const table = await buildLayeredInThreads(4, 4, tiles, {
      threads: 2,
      checkpoint,
      onProgress: (p) => {
        if (resumedAt < 0) resumedAt = p.depth;
      },
    });
    expect(resumedAt).toBeGreaterThan(10);
    expect(same(table, ref)).toBe(true);
    expect(existsSync(checkpoint)).toBe(false);
  }, 120_000);

  it('layer-build - a checkpoint of another pattern is ignored, not resumed', async () => {
    const dir = tempDir();
    const checkpoint = join(dir, 'x.checkpoint');
    const stop = new AbortController();
    const other = buildLayeredInThreads(3, 3, [1, 2, 3, 4], { threads: 1, checkpoint, checkpointEveryMs: 0, signal: stop.signal, onProgress: () => stop.abort() });
    await expect(other).rejects.toThrow();
    expect(existsSync(checkpoint)).toBe(true);
    let firstDepth = -1;
    const table = await buildLayeredInThreads(3, 3, [5, 6, 7, 8], { threads: 1, checkpoint, onProgress: (p) => void (firstDepth < 0 && (firstDepth = p.depth)) });
    expect(firstDepth).toBe(1);
    expect(same(table, naiveTable(3, 3, [5, 6, 7, 8]))).toBe(true);
  }, 60_000);

  it('layer-build - buildLayeredSet caches each table, and PdbLoader prefers the stronger set once it is there', async () => {
    const dir = tempDir();
    const weak = [[1, 2], [3, 4], [5, 6], [7, 8]];
    const strong = [[1, 2, 3, 4], [5, 6, 7, 8]];
    const logs: string[] = [];
    const before = new PdbLoader(dir, (l) => logs.push(l), 3, 3, weak, true, strong);
    // Nothing cached: the weak set is built on a thread; the stronger one is never built by the loader.
    expect((await before.ready())?.map((t) => t.tiles.length)).toEqual([2, 2, 2, 2]);
    let last = 0;
    await buildLayeredSet(3, 3, strong, dir, { threads: 2, onProgress: (p) => void (last = p.done / p.total) });
    expect(last).toBe(1);
    const after = new PdbLoader(dir, () => {}, 3, 3, weak, true, strong);
    const tables = after.get();
    expect(tables?.map((t) => t.tiles)).toEqual(strong);
    expect(same(tables![1]!.table, naiveTable(3, 3, [5, 6, 7, 8]))).toBe(true);
  }, 60_000);
});

describe('pdb-cache sampled check', () => {
  it('pdb-cache - a big table loads without its full checksum, and a damaged run or a truncated file is still refused', () => {
    const dir = tempDir();
    const tiles = [1, 2, 3, 4, 5, 6, 7];
    const table = new Uint8Array(SAMPLED_CHECK_BYTES + 12_345);
    for (let i = 0; i < table.length; i++) table[i] = (i * 2654435761) >>> 27;
    savePdb(dir, 4, 4, tiles, table);
    const file = join(dir, pdbFileName(4, 4, tiles));
    const good = readFileSync(file);
    expect(same(loadPdb(dir, 4, 4, tiles)!, table)).toBe(true);
    const zeroed = Buffer.from(good);
    zeroed.fill(0, 48 + 1_000_000, 48 + 1_000_000 + 4096); // a lost page
    writeFileSync(file, zeroed);
    expect(loadPdb(dir, 4, 4, tiles)).toBeNull();
    writeFileSync(file, good.subarray(0, good.length - 1));
    expect(loadPdb(dir, 4, 4, tiles)).toBeNull();
    const lastByte = Buffer.from(good);
    lastByte[lastByte.length - 1] ^= 1;
    writeFileSync(file, lastByte);
    expect(loadPdb(dir, 4, 4, tiles)).toBeNull();
    writeFileSync(file, good);
    expect(loadPdb(dir, 4, 4, tiles)).not.toBeNull();
  });
});
