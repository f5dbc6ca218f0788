import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../../src/app/context.ts';
import { startMatch, type StartMatchOptions } from '../../src/app/matches/matches.ts';
import * as scrambles from '../../src/referee/scrambles/scrambles.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';
import { ROOT, spawnArena } from './helpers.ts';

// A match no bot can play is refused before a scramble is generated or anything is stored. The real CLI
// with real bot processes; in-process, the generator is watched to prove it was never called.

vi.mock('../../src/referee/scrambles/scrambles.ts', async (original) => {
  const real = await original<typeof import('../../src/referee/scrambles/scrambles.ts')>();
  return { ...real, scrambleStream: vi.fn(real.scrambleStream), generateScrambles: vi.fn(real.generateScrambles) };
});

const dir = mkdtempSync(join(tmpdir(), 'arena-unplayable-'));

function matchRows(db: string): number {
  const conn = new Database(db, { readonly: true });
  try {
    return (conn.prepare('SELECT count(*) AS n FROM matches').get() as { n: number }).n;
  } finally {
    conn.close();
  }
}

const options = (bots: string[], size: number, count: number): StartMatchOptions => ({
  bots,
  scrambles: { spec: { kind: 'sliding' as const, rows: size, cols: size }, count },
  seed: 'unplayable',
  timeLimitMs: 10_000,
  maxMoves: 1_000_000,
  concurrency: 1,
});

describe('unplayable match', () => {
  afterEach(() => vi.mocked(scrambles.scrambleStream).mockClear());

  it('unplayable match - the CLI refuses dijkstra on 1000x1000 at once: exit 1, bot and class named, no match row', async () => {
    const db = join(dir, 'refused.db');
    const r = await spawnArena(['match', 'dijkstra', '--size', '1000', '--count', '1000', '--db', db], {}).done;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^arena: no bot can play this match: dijkstra declines sliding 1000x1000 \(bot declared sliding up to size 5;/m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
    expect(matchRows(db)).toBe(0);
  });

  it('unplayable match - every bot declining is a refusal; one bot playing is a warning and the match goes ahead', async () => {
    const db = join(dir, 'two.db');
    const both = await spawnArena(['match', 'dijkstra', 'hanoi-iterative', '--size', '6', '--count', '2', '--db', db], {}).done;
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/dijkstra declines sliding 6x6 .*; hanoi-iterative declines sliding 6x6 \(bot declared no capability for sliding\)/);
    expect(matchRows(db)).toBe(0);

    const one = await spawnArena(['match', 'dijkstra', 'constructive', '--size', '6', '--count', '2', '--db', db, '--json'], {}).done;
    expect(one.code).toBe(0);
    expect(one.stderr).toMatch(/warning: dijkstra declines sliding 6x6 \(bot declared sliding up to size 5; .*\); its scrambles of that class are recorded unsupported/);
    const report = JSON.parse(one.stdout) as { results: Array<{ bot: string; verdict: string }> };
    expect(report.results.filter((x) => x.bot === 'dijkstra').map((x) => x.verdict)).toEqual(['unsupported', 'unsupported']);
    expect(report.results.filter((x) => x.bot === 'constructive').map((x) => x.verdict)).toEqual(['solved', 'solved']);
    expect(matchRows(db)).toBe(1);
  });

  it('unplayable match - the refusal comes before the scramble generator is called or the store is written', async () => {
    const store = createMemoryStore();
    const ctx: AppContext = { store, dbLocation: ':memory:', projectRoot: ROOT, clock: systemClock };
    const refused = await startMatch(ctx, options(['dijkstra'], 1000, 1000));
    expect(refused).toMatchObject({ ok: false, code: 'unplayable', reason: expect.stringMatching(/dijkstra declines sliding 1000x1000/) });
    expect(scrambles.scrambleStream).not.toHaveBeenCalled();
    expect(await store.listMatches()).toEqual([]);

    // The watch is real: a playable match does call the generator.
    const played = await startMatch(ctx, options(['reference-bfs'], 2, 1));
    expect(played.ok).toBe(true);
    expect(scrambles.scrambleStream).toHaveBeenCalled();
  });
});

describe.skipIf(skipPgTests())('unplayable match - distributed', () => {
  let server: PgServer | undefined;
  afterAll(async () => {
    await server?.destroy();
  });

  it('unplayable match - a distributed match no bot can play is refused before it is generated or queued', async () => {
    server = await startPgServer();
    const url = await server.createDatabase('unplayable');
    const keys = mkdtempSync(join(tmpdir(), 'arena-keys-'));
    const r = await spawnArena(['match', 'dijkstra', '--size', '1000', '--count', '1000', '--db', url, '--distributed'], { ARENA_KEY_DIR: keys }).done;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^arena: no bot can play this match: dijkstra declines sliding 1000x1000 \(bot declared sliding up to size 5;/m);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      expect((await c.query('SELECT count(*)::int AS n FROM arena.matches')).rows[0].n).toBe(0);
      expect((await c.query('SELECT count(*)::int AS n FROM arena.scrambles')).rows[0].n).toBe(0);
    } finally {
      await c.end();
    }
  });
});
