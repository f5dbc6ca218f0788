/**
 * Server time (in process, no network) of the match list, a match page, the ladder page and the leaderboard
 * on a ladder database of 10,000 matches and 1,000,000 results (--quick: 1,000 and 100,000), on SQLite and
 * on PostgreSQL: the first request after opening (nothing cached), the mean of later ones while the
 * database is unchanged, and the mean right after a write (a new result invalidates derived ratings).
 * Opt-in (--only ladder): filling the databases takes minutes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openContext, type OpenContext } from '../src/app/context.ts';
import { createWebApp } from '../src/web/server.ts';
import { pgAvailable, startPgServer } from '../test/helpers/pg-server.ts';
import { BOTS, fillPg, fillSqlite } from './_ladder-db.ts';
import type { BenchRow, BenchSuite } from './types.ts';

export const optIn = true;

const PER_MATCH = 50;
const PAGES: readonly [string, string][] = [
  ['match list (/matches, 50 a page)', '/matches'],
  ['match page (100 results)', '/matches/{mid}'],
  ['ladder page', '/ladder'],
  ['leaderboard', '/'],
];

async function measure(ctx: OpenContext, label: string, matches: number): Promise<BenchRow[]> {
  const app = createWebApp(ctx);
  const rows: BenchRow[] = [];
  const get = async (path: string) => {
    const t0 = performance.now();
    const res = await app.request(path.replace('{mid}', String(Math.ceil(matches / 2))));
    await res.text();
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return performance.now() - t0;
  };
  const results = (matches * PER_MATCH * 2).toLocaleString('en');
  for (const [name, path] of PAGES) {
    const first = await get(path);
    let warm = 0;
    for (let i = 0; i < 5; i++) warm += await get(path);
    rows.push({ name: `${label}: ${name}, ${matches.toLocaleString('en')} matches / ${results} results, unchanged database`, value: warm / 5, unit: 'ms', target: '≤ 50 ms', note: `first request ${first.toFixed(0)} ms` });
    let after = 0;
    for (let i = 0; i < 3; i++) {
      await ctx.store.setMatchStatus(1, 'finished'); // a committed write, as a running match makes
      after += await get(path);
    }
    rows.push({ name: `${label}: ${name}, right after a write`, value: after / 3, unit: 'ms', target: '≤ 50 ms' });
  }
  rows.push(await afterNewResults(ctx, label, get));
  return rows;
}

/**
 * The leaderboard right after a new result (the write above adds none): a new ladder match's results, each
 * of the second bot pairing with the first's result on the same scramble, as a running match writes them.
 */
async function afterNewResults(ctx: OpenContext, label: string, get: (path: string) => Promise<number>): Promise<BenchRow> {
  const state = { kind: 'sliding', rows: 3, cols: 3, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 0] } as const;
  const m = await ctx.store.createMatch({
    config: {}, seed: `bench-new-${Date.now()}`, generatorVersion: 'bench', bots: [BOTS[0], BOTS[1]],
    scrambles: [0, 1, 2].map((index) => ({ index, state, puzzleClass: 'sliding 3x3', bound: { optimal: 20, lowerBound: 20 } })),
  });
  const scrambles = await ctx.store.listScrambles(m.id);
  let total = 0;
  let n = 0;
  for (const s of scrambles) {
    for (const [k, bot] of [BOTS[0], BOTS[1]].entries()) {
      await ctx.store.recordResult({ scrambleId: s.id, bot, verdict: 'solved', moveCount: 20 + 2 * k, moves: '', wallMs: 10 + k });
      total += await get('/');
      n++;
    }
  }
  return { name: `${label}: leaderboard, right after a new result`, value: total / n, unit: 'ms', target: '≤ 50 ms' };
}

export const bench: BenchSuite = async ({ quick }) => {
  const matches = quick ? 1_000 : 10_000;
  const rows: BenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'arena-bench-ladder-'));
  try {
    const file = join(dir, 'ladder.db');
    let t0 = performance.now();
    fillSqlite(file, matches, PER_MATCH);
    rows.push({ name: `sqlite: fill ${matches.toLocaleString('en')} ladder matches in bulk`, value: (performance.now() - t0) / 1000, unit: 's' });
    const ctx = await openContext({ db: file });
    if (!ctx.ok) throw new Error(ctx.reason);
    try {
      rows.push(...(await measure(ctx.value, 'sqlite', matches)));
    } finally {
      await ctx.value.close();
    }
    if (pgAvailable()) {
      const server = await startPgServer();
      try {
        const url = await server.createDatabase('ladder');
        t0 = performance.now();
        await fillPg(url, matches, PER_MATCH);
        rows.push({ name: `postgres: fill ${matches.toLocaleString('en')} ladder matches in bulk`, value: (performance.now() - t0) / 1000, unit: 's' });
        const pg = await openContext({ db: url });
        if (!pg.ok) throw new Error(pg.reason);
        try {
          rows.push(...(await measure(pg.value, 'postgres', matches)));
        } finally {
          await pg.value.close();
        }
      } finally {
        await server.destroy();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
};
