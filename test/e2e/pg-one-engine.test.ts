/**
 * One engine for local and distributed play, end to end with real parts: the same seeded SPRT match played
 * by `arena match` on a SQLite file and by `arena worker` processes on a real PostgreSQL (one worker
 * SIGKILLed mid-job) reaches the same decision after the same counted scrambles; a local match killed
 * mid-way and resumed on a worker does too; `--affinity` pins a worker's bots as a local match pins its
 * own; and a distributed 4×4 match gets the exact optimum of every scramble from the workers' oracle, each
 * found once.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../../src/store/pg/pg-store.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../../src/store/types.ts';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { affinitySupport, formatCpuList } from '../../src/transport/process/cpu-affinity.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';
import { ROOT, arenaRuns, waitFor } from './helpers.ts';

/** Worker timing for tests: a dead worker is noticed within seconds. */
const FAST = ['--heartbeat', '1s', '--dead-after', '6s'];

/** `instant` beats `instant --detour` (two moves longer) on every scramble: H1 after 23 of the 60 allowed. */
const BOTS = ['inst --delay 60', 'inst --delay 60 --detour'];
const SPRT_MATCH = [...BOTS, '--puzzle', 'sliding', '--size', '2', '--count', '60', '--seed', '5', '--time-limit', '5s', '--sprt', 'elo0=0,elo1=50', '--json'];

interface SprtSummary {
  decision: string | null;
  scrambles: number;
  wdl: { wins: number; draws: number; losses: number };
  a: string;
  b: string;
}

/** Registers the fixture bots `inst` (instant.ts) and `reporter` (affinity-reporter.ts), then closes the store. */
async function addInst(store: Store): Promise<void> {
  const loader = pathToFileURL(tsxLoaderPath(ROOT)!).href;
  await store.addBot({ name: 'inst', kind: 'command', cmd: `${process.execPath} --import ${loader} ${join(ROOT, 'test/fixtures/bots/instant.ts')}` });
  await store.addBot({ name: 'reporter', kind: 'command', cmd: `${process.execPath} --import ${loader} ${join(ROOT, 'test/fixtures/bots/affinity-reporter.ts')}` });
  await store.close();
}

describe.skipIf(skipPgTests())('one engine - local and distributed play alike', () => {
  let server: PgServer;
  const { arena, tempDir } = arenaRuns();

  beforeAll(async () => {
    server = await startPgServer();
  });
  afterAll(async () => {
    await server?.destroy();
  });
  const worker = (url: string, name: string) => arena(['worker', '--db', url, '--name', name, ...FAST]);

  it('one engine - the same seeded SPRT match, locally and on two workers (one killed mid-job), decides alike after the same counted scrambles', { timeout: 300_000 }, async () => {
    // Locally, on a SQLite file.
    const dir = tempDir('arena-engine-');
    const file = join(dir, 'local.db');
    await addInst(openSqliteStore(file));
    const local = await arena(['match', ...SPRT_MATCH, '--db', file]).done;
    expect(local.code, local.stderr).toBe(0);
    const l = JSON.parse(local.stdout) as { match: { status: string }; summary: { sprt: SprtSummary } };
    expect(l.match.status).toBe('finished');
    expect(l.summary.sprt).toMatchObject({ decision: 'H1', scrambles: 23, wdl: { wins: 23, draws: 0, losses: 0 } });

    // Distributed, on PostgreSQL: two workers, one SIGKILLed while it holds a job it has started.
    const url = await server.createDatabase('engine');
    await addInst(await openPgStore(url));
    const sql = new pg.Pool({ connectionString: url, max: 2 });
    sql.on('error', () => undefined);
    try {
      const match = arena(['match', ...SPRT_MATCH, '--batch', '3', '--db', url, '--distributed']);
      const ws = [worker(url, 'k1'), worker(url, 'k2')];
      const midJob = await waitFor(
        tolerant(async () => {
          const held = await sql.query(
            `SELECT j.bot, j.scrambles, (SELECT count(*)::int FROM arena.results r WHERE r.worker = 'k1') AS mine
               FROM arena.worker_jobs j JOIN arena.workers w ON w.id = j.worker_id WHERE w.name = 'k1' AND w.stopped_at IS NULL`,
          );
          return held.rows.length > 0 && held.rows[0].mine > 0;
        }),
        120_000,
      );
      expect(midJob).toBe(true);
      ws[0].child.kill('SIGKILL');

      const out = await match.done;
      expect(out.code, out.stderr).toBe(0);
      const d = JSON.parse(out.stdout) as { match: { status: string }; summary: { sprt: SprtSummary }; results: unknown[] };
      expect(d.match.status).toBe('finished');
      // The same decision after the same counted scrambles.
      expect(d.summary.sprt).toEqual(l.summary.sprt);
      // Stopped once decided: the jobs not yet taken were withdrawn, far short of the 120 plays allowed; what
      // was played meanwhile is kept (every result exactly once) but not counted.
      const rows = (await sql.query(`SELECT scramble_id, bot FROM arena.results`)).rows;
      expect(rows.length).toBeLessThan(120);
      expect(new Set(rows.map((r) => `${r.scramble_id}/${r.bot}`)).size).toBe(rows.length);
      // The surviving worker played on after the kill.
      expect((await sql.query(`SELECT count(*)::int AS n FROM arena.results WHERE worker = 'k2'`)).rows[0].n).toBeGreaterThan(0);
    } finally {
      await sql.end();
    }
  });

  it('one engine - a local match killed mid-way resumes on a worker (--resume --distributed) to the same decision', { timeout: 300_000 }, async () => {
    const url = await server.createDatabase('resume');
    await addInst(await openPgStore(url));
    const sql = new pg.Pool({ connectionString: url, max: 2 });
    sql.on('error', () => undefined);
    try {
      const local = arena(['match', ...SPRT_MATCH, '--db', url]);
      expect(await waitFor(tolerant(async () => (await sql.query(`SELECT count(*)::int AS n FROM arena.results`)).rows[0].n >= 10), 120_000)).toBe(true);
      local.child.kill('SIGKILL');
      await local.done;
      const resumed = arena(['match', '--resume', '1', '--db', url, '--distributed', '--json']);
      worker(url, 'r1');
      const out = await resumed.done;
      expect(out.code, out.stderr).toBe(0);
      const d = JSON.parse(out.stdout) as { match: { status: string }; summary: { sprt: SprtSummary } };
      expect(d.match.status).toBe('finished');
      expect(d.summary.sprt).toMatchObject({ decision: 'H1', scrambles: 23, wdl: { wins: 23, draws: 0, losses: 0 } });
      const rows = (await sql.query(`SELECT scramble_id, bot, worker FROM arena.results`)).rows;
      expect(new Set(rows.map((r) => `${r.scramble_id}/${r.bot}`)).size).toBe(rows.length);
      expect(rows.some((r) => r.worker === null) && rows.some((r) => r.worker === 'r1')).toBe(true);
    } finally {
      await sql.end();
    }
  });

  it('one engine - by default a worker pins its one player\'s bots off its referee core, as locally', { timeout: 300_000 }, async () => {
    const support = affinitySupport();
    if (process.platform !== 'linux') return;
    expect(support.ok, support.ok ? '' : support.reason).toBe(true);
    if (!support.ok) return;
    const url = await server.createDatabase('affinity');
    await addInst(await openPgStore(url));
    const sql = new pg.Pool({ connectionString: url, max: 2 });
    sql.on('error', () => undefined);
    try {
      const match = arena(['match', 'reporter', '--puzzle', 'sliding', '--size', '2', '--count', '6', '--batch', '1', '--db', url, '--distributed', '--json']);
      const w = arena(['worker', '--db', url, '--name', 'p1', '--concurrency', '1', ...FAST]);
      const log = collect(w.child);
      const out = await match.done;
      expect(out.code, out.stderr).toBe(0);
      // The worker does not know its bots beforehand: its player's share is every core but the first, and a
      // bot that declares no threads runs on the first of them.
      const [referee, first, ...rest] = support.cpus;
      const notes = (await sql.query(`SELECT verdict, note FROM arena.results`)).rows;
      expect(notes).toHaveLength(6);
      for (const n of notes) expect([n.verdict, n.note]).toEqual(['solved', `cpus ${first}`]);
      expect(log.text).toContain(`cores: referee ${referee}; player 1: ${formatCpuList([first!, ...rest])}`);
    } finally {
      await sql.end();
    }
  });

  it('one engine - a distributed 4x4 match gets the exact optimum of every scramble from the workers, each found once', { timeout: 300_000 }, async () => {
    const url = await server.createDatabase('optima');
    const sql = new pg.Pool({ connectionString: url, max: 2 });
    sql.on('error', () => undefined);
    try {
      const match = arena(['match', 'ida-star', 'constructive', '--puzzle', 'sliding', '--size', '4', '--count', '4', '--seed', '3', '--time-limit', '60s', '--db', url, '--distributed', '--json']);
      const logs = [worker(url, 'o1'), worker(url, 'o2')].map((w) => collect(w.child));
      const out = await match.done;
      expect(out.code, out.stderr).toBe(0);
      const scrambles = (await sql.query(`SELECT id::int, optimal, lower_bound, bound_note FROM arena.scrambles ORDER BY idx`)).rows;
      expect(scrambles).toHaveLength(4);
      // ida-star's answers are optimal (its own search, in its own process): every stored optimum equals them.
      const ida = new Map((await sql.query(`SELECT scramble_id::int AS id, move_count FROM arena.results WHERE bot = 'ida-star' AND verdict = 'solved'`)).rows.map((r) => [r.id, r.move_count]));
      for (const s of scrambles) {
        expect(s.optimal, JSON.stringify(s)).not.toBeNull();
        expect(s.optimal).toBe(s.lower_bound);
        expect(s.optimal).toBe(ida.get(s.id));
      }
      const report = JSON.parse(out.stdout) as { scrambles: Array<{ optimal?: number | null }> };
      expect(report.scrambles.every((s) => typeof s.optimal === 'number')).toBe(true);
      // Each scramble's optimum was found once, by one worker, and cached for every later match.
      expect((await sql.query(`SELECT count(*)::int AS n FROM arena.optima`)).rows[0].n).toBe(4);
      await waitFor(() => logs.reduce((n, l) => n + (l.text.match(/exact optima of 1 scramble\(s\) settled/g) ?? []).length, 0) >= 4, 10_000);
      expect(logs.reduce((n, l) => n + (l.text.match(/exact optima of 1 scramble\(s\) settled/g) ?? []).length, 0)).toBe(4);
    } finally {
      await sql.end();
    }
  });
});

/** A predicate for waitFor that counts a failing query (tables not there yet) as false. */
function tolerant(pred: () => Promise<boolean>): () => Promise<boolean> {
  return () => pred().catch(() => false);
}

/** Collects what a spawned process writes to stdout and stderr from now on. */
function collect(child: ChildProcess): { text: string } {
  const box = { text: '' };
  child.stdout!.on('data', (d) => (box.text += d));
  child.stderr!.on('data', (d) => (box.text += d));
  return box;
}
