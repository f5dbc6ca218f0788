/**
 * Store throughput on a real SQLite file in a temp dir (WAL, synchronous=NORMAL): results recorded per
 * second with each result its own transaction, as the referee records them; the time to record one
 * 1,000,000-move result (a sliding string and, for comparison, 1e6 swap pairs); and reading every result
 * back for the leaderboard. CPU time is reported alongside wall time because the machine is shared.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PuzzleState } from '../src/core/types.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../src/store/types.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const STATE: PuzzleState = { kind: 'sliding', rows: 4, cols: 4, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15] };

interface Timed {
  readonly wallMs: number;
  readonly cpuMs: number;
}

async function timed(fn: () => Promise<void>): Promise<Timed> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wallMs, cpuMs: (c.user + c.system) / 1000 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

async function newMatch(store: Store, scrambles: number): Promise<number[]> {
  const list = Array.from({ length: scrambles }, (_, index) => ({
    index,
    state: STATE,
    puzzleClass: 'sliding 4x4',
    bound: { optimal: 1, lowerBound: 1 },
  }));
  const m = await store.createMatch({ config: { bench: true }, seed: 'bench', generatorVersion: 'bench', bots: ['a', 'b'], scrambles: list });
  return (await store.listScrambles(m.id)).map((s) => s.id);
}

export const bench: BenchSuite = async ({ quick }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bench-store-'));
  const store = openSqliteStore(path.join(dir, 'bench.db'));
  const rows: BenchRow[] = [];
  try {
    // Many small results, two bots per scramble, each insert committed on its own.
    const count = quick ? 2_000 : 20_000;
    const ids = await newMatch(store, count / 2);
    const moves = 'RDLURDLURDLURDLURDLURDLURDLURDLURDLURDLURDLURDLURDL';
    let i = 0;
    const insert = await timed(async () => {
      for (const scrambleId of ids) {
        for (const bot of ['a', 'b']) {
          await store.recordResult({ scrambleId, bot, verdict: 'solved', moveCount: moves.length, moves, wallMs: 12.5 + (i++ % 7) });
        }
      }
    });
    rows.push({
      name: 'recordResult, one transaction each (50-move results)',
      value: count / (insert.wallMs / 1000),
      unit: 'results/s',
      note: `${count} results; ${(count / (insert.cpuMs / 1000)).toFixed(0)} per CPU-second`,
    });

    const read = await timed(async () => {
      if ((await store.allResults('sliding 4x4')).length !== count) throw new Error('store bench: lost results');
    });
    rows.push({ name: 'allResults(class) read-back', value: count / (read.wallMs / 1000), unit: 'rows/s', note: `${count} rows` });

    // One huge result: the 1e6-move answers the big-board bots produce.
    const runs = quick ? 3 : 9;
    const bigIds = await newMatch(store, 2 * runs);
    const bigText = 'UDLR'.repeat(250_000);
    const textTimes: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = await timed(() =>
        store.recordResult({ scrambleId: bigIds[r], bot: 'a', verdict: 'solved', moveCount: 1_000_000, moves: bigText, wallMs: 1 }),
      );
      textTimes.push(t.wallMs);
    }
    rows.push({
      name: 'record one 1,000,000-move result (string)',
      value: median(textTimes),
      unit: 'ms',
      note: `median of ${runs}, max ${Math.max(...textTimes).toFixed(1)} ms`,
    });

    const bigPairs = Array.from({ length: 1_000_000 }, (_, k): [number, number] => [(k % 9999) + 1, (k % 9973) + 2]);
    const pairTimes: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t = await timed(() =>
        store.recordResult({ scrambleId: bigIds[runs + r], bot: 'a', verdict: 'solved', moveCount: 1_000_000, moves: bigPairs, wallMs: 1 }),
      );
      pairTimes.push(t.wallMs);
    }
    rows.push({
      name: 'record one 1,000,000-move result (swap pairs, JSON)',
      value: median(pairTimes),
      unit: 'ms',
      note: `median of ${runs}, max ${Math.max(...pairTimes).toFixed(1)} ms`,
    });
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
};
