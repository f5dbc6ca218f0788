import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openContext } from '../src/app/context.ts';
import { openStoredAnswer } from '../src/app/records/replay-seek.ts';
import { puzzles } from '../src/puzzles/index.ts';
import { createWebApp } from '../src/web/server.ts';
import type { BenchRow, BenchSuite } from './types.ts';

/**
 * Web view: server time (in process, no network) for the leaderboard and a match page on a database of
 * 100,000 results, and seek time in the 16,777,215-move Hanoi replay.
 */
export const bench: BenchSuite = async ({ quick }) => {
  const rows: BenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-web-'));
  try {
    const opened = await openContext({ db: join(dir, 'web.db') });
    if (!opened.ok) throw new Error(opened.reason);
    const ctx = opened.value;
    const sliding = puzzles.sliding;
    const spec = sliding.normalizeSpec({ kind: 'sliding', size: 3 });
    if (!spec.ok) throw new Error(spec.reason);
    const bots = ['alpha', 'beta', 'gamma', 'delta'];
    const results = quick ? 20_000 : 100_000;
    const perMatch = 250;
    let made = 0;
    const goal = sliding.goal(spec.value);
    for (let m = 0; made < results; m++) {
      const scrambles = Array.from({ length: perMatch / bots.length }, (_, index) => ({ index, state: goal, puzzleClass: 'sliding 3x3', bound: { lowerBound: 0, optimal: 0 } }));
      const match = await ctx.store.createMatch({ config: {}, seed: String(m), generatorVersion: 'bench', bots, scrambles });
      const stored = await ctx.store.listScrambles(match.id);
      for (const s of stored) {
        for (const [i, bot] of bots.entries()) {
          await ctx.store.recordResult({ scrambleId: s.id, bot, verdict: 'solved', moveCount: 20 + ((s.index + i + m) % 7), moves: '', wallMs: 1 + ((s.index * 7 + i * 13 + m) % 50) });
          made++;
        }
      }
      await ctx.store.setMatchStatus(match.id, 'finished');
    }
    const app = createWebApp(ctx);
    // `beforeEach` runs untimed before every request: a committed write there makes the leaderboard read and
    // refit every result, as it must after each new result of a running match.
    const time = async (path: string, n: number, beforeEach?: () => Promise<void>) => {
      const res0 = await app.request(path);
      if (res0.status !== 200) throw new Error(`${path}: ${res0.status}`);
      let total = 0;
      for (let i = 0; i < n; i++) {
        await beforeEach?.();
        const t0 = performance.now();
        await (await app.request(path)).text();
        total += performance.now() - t0;
      }
      return total / n;
    };
    const write = () => ctx.store.setMatchStatus(1, 'finished');
    rows.push({ name: `leaderboard page, ${made.toLocaleString('en')} results, after a write (read + refit)`, value: await time('/', 5, write), unit: 'ms', target: '≤ 300 ms' });
    rows.push({ name: 'leaderboard page, database unchanged since the last request', value: await time('/', 5), unit: 'ms' });
    rows.push({ name: 'match page (250 results) on the same database', value: await time('/matches/1', 5), unit: 'ms', target: '≤ 300 ms' });
    await ctx.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Seeking in a 24-disc tower: one validating pass to open, then bounded replays per seek.
  const discs = 24;
  const start = { kind: 'hanoi' as const, pegs: 3 as const, start: 'A'.repeat(discs), goal: 'C'.repeat(discs) };
  const moves = hanoiTower(discs);
  const t0 = performance.now();
  // Pieces as a store streams a long answer (Store.readMoves): the empty text, then blocks of 1 MiB.
  const pieces = async function* (from: number) {
    if (from === 0) yield '';
    for (let at = Math.max(0, from - 1) << 20; at < moves.length; at += 1 << 20) yield moves.slice(at, at + (1 << 20));
  };
  const handle = await openStoredAnswer(start, pieces, { match: 0, scramble: 0, bot: 'x', puzzleClass: 'hanoi 24', verdict: 'solved', recordedMoves: moves.length / 2 });
  rows.push({ name: 'open a 16,777,215-move Hanoi replay (validate + checkpoints)', value: performance.now() - t0, unit: 'ms' });
  let worst = 0;
  let total = 0;
  const seeks = quick ? 20 : 100;
  for (let i = 0; i < seeks; i++) {
    const k = Math.floor(((i * 2654435761) % 4294967296) / 4294967296 * handle.info.legalMoves);
    const t = performance.now();
    await handle.seek(k);
    const dt = performance.now() - t;
    worst = Math.max(worst, dt);
    total += dt;
  }
  rows.push({ name: `seek in the 16.7 M-move replay, mean of ${seeks} (worst ${worst.toFixed(1)} ms)`, value: total / seeks, unit: 'ms', target: '≤ 100 ms' });
  return rows;
};

/** The optimal tower A → C as from/to letters. */
function hanoiTower(n: number): string {
  const out: string[] = [];
  const go = (k: number, from: string, to: string, via: string): void => {
    if (k === 0) return;
    go(k - 1, from, via, to);
    out.push(from + to);
    go(k - 1, via, to, from);
  };
  go(n, 'A', 'C', 'B');
  return out.join('');
}
