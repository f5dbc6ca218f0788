/**
 * What seals and `arena audit` cost, on a real SQLite file: results recorded per second with and without a
 * key (each result its own transaction, as the referee records them), and the audit of one 16,777,215-move
 * answer (the optimal 24-disc Hanoi tower, 33.5 MB of notation stored in blocks) streamed through the
 * validator and the digest, with the growth of the heap while it runs (the answer is never joined).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { auditDatabase } from '../src/app/audit/audit.ts';
import type { PuzzleState } from '../src/core/types.ts';
import { MoveRecorder } from '../src/puzzles/move-pieces.ts';
import { keyCheck } from '../src/store/seal.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../src/store/types.ts';
import { systemClock } from '../src/transport/system-clock.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const STATE: PuzzleState = { kind: 'sliding', rows: 4, cols: 4, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15] };
const CONFIG = { bots: ['a', 'b'], count: 1, seed: 'bench', timeLimitMs: 1000, maxMoves: 20_000_000, concurrency: 1, scrambleFile: 'bench' };

/** Gives `store` a key, as a match opening a fresh database does; the key file is written beside `file`. */
async function seal(store: Store, file: string): Promise<void> {
  const key = randomBytes(32);
  const meta = await store.claimSealKey(keyCheck(key));
  store.sealWith({ key, dbId: meta.dbId });
  fs.writeFileSync(`${file}.key`, key.toString('hex'), { mode: 0o600 });
}

async function recordRate(store: Store, count: number): Promise<number> {
  const list = Array.from({ length: count / 2 }, (_, index) => ({ index, state: STATE, puzzleClass: 'sliding 4x4', bound: { optimal: 1, lowerBound: 1 } }));
  const m = await store.createMatch({ config: { ...CONFIG, count: count / 2 }, seed: 'bench', generatorVersion: 'bench', bots: ['a', 'b'], scrambles: list });
  const ids = (await store.listScrambles(m.id)).map((s) => s.id);
  // 51 legal moves that solve the board: the one move, then back and forth.
  const moves = `R${'LR'.repeat(25)}`;
  const t0 = performance.now();
  for (const scrambleId of ids) {
    for (const bot of ['a', 'b']) await store.recordResult({ scrambleId, bot, verdict: 'solved', moveCount: moves.length, moves, wallMs: 12.5 });
  }
  return count / ((performance.now() - t0) / 1000);
}

/** The optimal tower move of a 24-disc Hanoi from A to C, as the referee would have recorded it. */
function hanoiAnswer(discs: number): ReturnType<MoveRecorder['result']> {
  const rec = new MoveRecorder('text');
  // Iterative solution: the smallest disc cycles one way; every other move is the only legal one elsewhere.
  const pegs: number[][] = [Array.from({ length: discs }, (_, i) => discs - i), [], []];
  const order = discs % 2 === 0 ? [0, 1, 2] : [0, 2, 1];
  const L = 'ABC';
  let small = 0;
  let buf = '';
  for (let k = 1; k < 2 ** discs; k++) {
    let from: number;
    let to: number;
    if (k % 2 === 1) {
      from = order[small];
      to = order[(small + 1) % 3];
      small = (small + 1) % 3;
    } else {
      const [x, y] = [0, 1, 2].filter((p) => p !== order[small]);
      const tx = pegs[x].at(-1) ?? Infinity;
      const ty = pegs[y].at(-1) ?? Infinity;
      [from, to] = tx < ty ? [x, y] : [y, x];
    }
    pegs[to].push(pegs[from].pop()!);
    buf += L[from] + L[to];
    if (buf.length >= 1 << 16) {
      rec.push(buf);
      buf = '';
    }
  }
  if (buf) rec.push(buf);
  return rec.result();
}

export const bench: BenchSuite = async ({ quick }) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-bench-audit-'));
  const rows: BenchRow[] = [];
  try {
    const count = quick ? 2_000 : 10_000;
    const plainFile = path.join(dir, 'plain.db');
    const plain = openSqliteStore(plainFile);
    const unsealed = await recordRate(plain, count);
    await plain.close();
    const sealedFile = path.join(dir, 'sealed.db');
    const sealed = openSqliteStore(sealedFile);
    await seal(sealed, sealedFile);
    const withSeals = await recordRate(sealed, count);
    rows.push({ name: 'recordResult without a key (50-move results)', value: unsealed, unit: 'results/s', note: `${count} results` });
    rows.push({ name: 'recordResult sealed (50-move results)', value: withSeals, unit: 'results/s', note: `${count} results; ${(100 * (1 - withSeals / unsealed)).toFixed(0)}% fewer` });
    const ctx = { store: sealed, dbLocation: sealedFile, location: sealedFile, projectRoot: '.', clock: systemClock };
    const t0 = performance.now();
    const small = await auditDatabase(ctx, { match: 1 });
    if (!small.ok || !small.value.ok) throw new Error(`audit bench: the small match does not verify: ${JSON.stringify(small.ok ? small.value.problems.slice(0, 2) : small.reason)}`);
    rows.push({ name: `audit of ${count} results`, value: count / ((performance.now() - t0) / 1000), unit: 'results/s' });

    const discs = quick ? 20 : 24;
    const state: PuzzleState = { kind: 'hanoi', pegs: 3, start: 'A'.repeat(discs), goal: 'C'.repeat(discs) };
    const m = await sealed.createMatch({ config: CONFIG, seed: 'bench', generatorVersion: 'bench', bots: ['a'], scrambles: [{ index: 0, state, puzzleClass: `hanoi ${discs}`, bound: { optimal: 2 ** discs - 1, lowerBound: 2 ** discs - 1 } }] });
    const [s] = await sealed.listScrambles(m.id);
    await sealed.recordResult({ scrambleId: s.id, bot: 'a', verdict: 'solved', moveCount: 2 ** discs - 1, moves: hanoiAnswer(discs), wallMs: 1 });
    await sealed.setMatchStatus(m.id, 'finished');
    // The heap is sampled as each piece of the answer is handed out (the audit never waits on a timer).
    const heap0 = process.memoryUsage().heapUsed;
    let peak = heap0;
    const watched: Store = Object.create(sealed, {
      readMoves: {
        value: async function* (scrambleId: number, bot: string) {
          for await (const piece of sealed.readMoves(scrambleId, bot)) {
            peak = Math.max(peak, process.memoryUsage().heapUsed);
            yield piece;
          }
        },
      },
    });
    const t1 = performance.now();
    const big = await auditDatabase({ ...ctx, store: watched }, { match: m.id });
    const ms = performance.now() - t1;
    if (!big.ok || !big.value.ok) throw new Error(`audit bench: the Hanoi answer does not verify: ${JSON.stringify(big.ok ? big.value.problems : big.reason)}`);
    rows.push({
      name: `audit of one ${2 ** discs - 1}-move Hanoi answer (${discs} discs)`,
      value: ms,
      unit: 'ms',
      note: `${((2 ** discs - 1) / (ms / 1000) / 1e6).toFixed(1)} Mmoves/s; heap at most ${((peak - heap0) / 2 ** 20).toFixed(0)} MiB above its start while streaming (answer ${((2 * (2 ** discs - 1)) / 2 ** 20).toFixed(0)} MiB)`,
    });
    await sealed.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
};
