/**
 * Distributed matches end to end: a real PostgreSQL, `arena match --distributed` and `arena worker` as
 * spawned CLI processes, bots started by the workers. Faults are real too: a worker SIGKILLed in the middle
 * of a job, the database server stopped and started again under running workers.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openContext } from '../../src/app/context.ts';
import { openPgStore } from '../../src/store/pg/pg-store.ts';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { createWebApp } from '../../src/web/server.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';
import { ROOT, spawnArena, waitFor } from './helpers.ts';

/** Worker timing for tests: a dead worker is noticed within seconds. */
const FAST = ['--heartbeat', '1s', '--dead-after', '6s'];

interface Row {
  scramble_id: number;
  bot: string;
  verdict: string;
  moves: string;
  wall_ms: number;
  worker: string | null;
  cpu: string | null;
  created_at: Date;
}

describe.skipIf(skipPgTests())('distributed matches - workers on a real PostgreSQL', () => {
  let server: PgServer;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    server = await startPgServer();
  });
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  afterAll(async () => {
    await server?.destroy();
  });

  /** A fresh database with the fixture bot `inst` registered (a 2x2 solver; `--delay ms` per answer). */
  async function database(): Promise<{ url: string; sql: pg.Pool }> {
    const url = await server.createDatabase('dist');
    const store = await openPgStore(url);
    const loader = pathToFileURL(tsxLoaderPath(ROOT)!).href;
    await store.addBot({ name: 'inst', kind: 'command', cmd: `${process.execPath} --import ${loader} ${join(ROOT, 'test/fixtures/bots/instant.ts')}` });
    await store.close();
    const sql = new pg.Pool({ connectionString: url, max: 2 });
    sql.on('error', () => undefined);
    return { url, sql };
  }

  function arena(args: string[]) {
    const run = spawnArena(args, {});
    children.push(run.child);
    return run;
  }

  const worker = (url: string, name: string) => arena(['worker', '--db', url, '--name', name, ...FAST]);

  async function rows(sql: pg.Pool, matchId: number): Promise<Row[]> {
    const r = await sql.query<Row>(
      `SELECT r.scramble_id::int, r.bot, r.verdict, r.moves, r.wall_ms, r.worker, r.cpu, r.created_at
         FROM arena.results r JOIN arena.scrambles s ON s.id = r.scramble_id WHERE s.match_id = $1 ORDER BY r.id`,
      [matchId],
    );
    return r.rows;
  }

  async function status(sql: pg.Pool, matchId: number): Promise<string | undefined> {
    return (await sql.query(`SELECT status FROM arena.matches WHERE id = $1`, [matchId])).rows[0]?.status;
  }

  /** Every (scramble, bot) of the match has exactly one result. */
  async function expectComplete(sql: pg.Pool, matchId: number, bots: string[], scrambles: number): Promise<Row[]> {
    const all = await rows(sql, matchId);
    const ids = (await sql.query(`SELECT id::int FROM arena.scrambles WHERE match_id = $1`, [matchId])).rows.map((r) => r.id as number);
    expect(ids).toHaveLength(scrambles);
    const keys = all.map((r) => `${r.scramble_id}/${r.bot}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(keys)).toEqual(new Set(ids.flatMap((id) => bots.map((b) => `${id}/${b}`))));
    expect(all.every((r) => r.verdict === 'solved' && r.worker !== null && r.cpu !== null)).toBe(true);
    return all;
  }

  it('distributed - three workers, one SIGKILLed mid-job: its job goes to another, every result exactly once, earlier rows unchanged', { timeout: 300_000 }, async () => {
    const { url, sql } = await database();
    try {
      const bots = ['inst --delay 150', 'inst --delay 100'];
      const match = arena(['match', ...bots, '--puzzle', 'sliding', '--rows', '2', '--cols', '2', '--count', '24', '--seed', '7', '--time-limit', '5s', '--db', url, '--distributed']);
      const ws = ['w1', 'w2', 'w3'].map((n) => worker(url, n));

      // Kill w1 while it holds a job that it has started but not finished.
      let victim: { job_id: string; ids: number[]; bot: string } | undefined;
      const midJob = await waitFor(tolerant(async () => {
        // (pg-boss's tables appear once the first worker or the match has installed them.)
        const held = await sql.query(
          `SELECT j.job_id, j.bot, q.data->'scrambleIds' AS ids FROM arena.worker_jobs j
             JOIN arena.workers w ON w.id = j.worker_id JOIN arena_queue.job q ON q.id = j.job_id
            WHERE w.name = 'w1' AND w.stopped_at IS NULL`,
        );
        for (const h of held.rows) {
          const mine = await sql.query(`SELECT count(*)::int AS n FROM arena.results WHERE worker = 'w1' AND bot = $1 AND scramble_id = ANY($2::bigint[])`, [h.bot, h.ids]);
          if (mine.rows[0].n > 0 && mine.rows[0].n < h.ids.length) {
            victim = { job_id: h.job_id, ids: h.ids, bot: h.bot };
            return true;
          }
        }
        return false;
      }), 120_000);
      expect(midJob).toBe(true);
      ws[0].child.kill('SIGKILL');
      const before = await rows(sql, 1);
      expect(before.some((r) => r.worker === 'w1')).toBe(true);

      const out = await match.done;
      expect(out.stderr).not.toMatch(/internal error/);
      expect(out.code).toBe(0);
      expect(out.stdout).toMatch(/match 1 .* finished/);
      expect(await status(sql, 1)).toBe('finished');

      const after = await expectComplete(sql, 1, bots, 24);
      // What was written before the kill is still there, byte for byte: nothing was played twice into the table.
      const byKey = new Map(after.map((r) => [`${r.scramble_id}/${r.bot}`, r]));
      for (const r of before) expect(byKey.get(`${r.scramble_id}/${r.bot}`)).toEqual(r);
      // The killed job was finished by another worker, from where w1 stopped.
      const rest = victim!.ids.map((id) => byKey.get(`${id}/${victim!.bot}`)!);
      expect(rest.some((r) => r.worker === 'w1')).toBe(true);
      expect(rest.some((r) => r.worker !== 'w1')).toBe(true);
      const dead = await sql.query(`SELECT stop_reason FROM arena.workers WHERE name = 'w1'`);
      expect(dead.rows.map((r) => r.stop_reason)).toEqual(['no heartbeat for 6 s']);

      // The survivors leave cleanly on SIGINT and say what they did.
      for (const w of ws.slice(1)) w.child.kill('SIGINT');
      for (const w of ws.slice(1)) {
        const end = await w.done;
        expect(end.code).toBe(0);
        expect(end.stdout).toMatch(/worker w\d stopped: \d+ result\(s\)/);
      }
      expect((await sql.query(`SELECT count(*)::int AS n FROM arena.workers WHERE stopped_at IS NULL`)).rows[0].n).toBe(0);
    } finally {
      await sql.end();
    }
  });

  it('distributed - a PostgreSQL outage longer than the dead-after window: workers reconnect and finish it, and are never called gone', { timeout: 300_000 }, async () => {
    const { url, sql } = await database();
    try {
      const bots = ['inst --delay 40'];
      const match = arena(['match', ...bots, '--puzzle', 'sliding', '--size', '2', '--count', '30', '--seed', '11', '--time-limit', '5s', '--db', url, '--distributed']);
      const ws = [worker(url, 'r1'), worker(url, 'r2')];
      expect(await waitFor(tolerant(async () => (await rows(sql, 1)).length >= 4), 120_000)).toBe(true);
      // Down longer than the dead-after window (6 s): nobody could beat meanwhile.
      await server.stop('immediate');
      await new Promise((r) => setTimeout(r, 8000));
      await server.start();
      const out = await match.done;
      expect(out.code).toBe(0);
      // The watcher never called the workers gone: they had only been unable to beat.
      expect(out.stderr).not.toMatch(/no live worker/);
      await expectComplete(sql, 1, bots, 30);
      // Both workers are still the ones that started: nobody was declared dead over the restart.
      expect(ws.every((w) => w.child.exitCode === null)).toBe(true);
      const reg = await sql.query(`SELECT name, stopped_at FROM arena.workers ORDER BY name`);
      expect(reg.rows.map((r) => [r.name, r.stopped_at])).toEqual([
        ['r1', null],
        ['r2', null],
      ]);
    } finally {
      await sql.end();
    }
  });

  it('distributed - two matches at once on one database, shared by the same workers', { timeout: 300_000 }, async () => {
    const { url, sql } = await database();
    try {
      const a = arena(['match', 'inst --delay 20', '--size', '2', '--count', '12', '--seed', '1', '--db', url, '--distributed']);
      const b = arena(['match', 'inst', 'inst --delay 10', '--rows', '2', '--cols', '3', '--count', '8', '--seed', '2', '--db', url, '--distributed']);
      worker(url, 'x1');
      worker(url, 'x2');
      const [ra, rb] = await Promise.all([a.done, b.done]);
      expect([ra.code, rb.code], `${ra.stderr}\n---\n${rb.stderr}`).toEqual([0, 0]);
      const ids = (await sql.query(`SELECT id::int, bots::text FROM arena.matches ORDER BY id`)).rows;
      expect(ids).toHaveLength(2);
      const one = ids.find((m) => JSON.parse(m.bots).length === 1)!.id as number;
      const two = ids.find((m) => JSON.parse(m.bots).length === 2)!.id as number;
      await expectComplete(sql, one, ['inst --delay 20'], 12);
      await expectComplete(sql, two, ['inst', 'inst --delay 10'], 8);
      const workers = new Set((await rows(sql, one)).concat(await rows(sql, two)).map((r) => r.worker));
      expect([...workers].every((w) => w === 'x1' || w === 'x2')).toBe(true);
    } finally {
      await sql.end();
    }
  });

  it('distributed - a bot no worker can start: its jobs wait, the match says why, the other bot is played', { timeout: 300_000 }, async () => {
    const { url, sql } = await database();
    try {
      const store = await openPgStore(url);
      await store.addBot({ name: 'ghost', kind: 'command', cmd: '/nonexistent/ghost-bot' });
      await store.close();
      const match = arena(['match', 'inst', 'ghost', '--size', '2', '--count', '4', '--seed', '3', '--db', url, '--distributed']);
      const watcher = collectStderr(match.child);
      worker(url, 'g1');
      const stalled = await waitFor(() => /no live worker can start ghost: g1: /.test(watcher.text), 120_000);
      expect(stalled).toBe(true);
      expect(await waitFor(tolerant(async () => (await rows(sql, 1)).length === 4), 60_000)).toBe(true);
      const show = arena(['show', '1', '--db', url]);
      const shown = await show.done;
      expect(shown.code).toBe(0);
      expect(shown.stdout).toMatch(/g1 cannot start ghost: /);
      expect(shown.stdout).toMatch(/waiting: no live worker can start ghost/);
      expect((await rows(sql, 1)).every((r) => r.bot === 'inst')).toBe(true);
      // The match page of the web view shows the same, with the live workers and their jobs.
      const opened = await openContext({ db: url });
      if (!opened.ok) throw new Error(opened.reason);
      try {
        const web = createWebApp(opened.value);
        const html = await (await web.request('/matches/1')).text();
        expect(html).toMatch(/g1 cannot start ghost: /);
        expect(html).toMatch(/<td>g1<\/td>/);
        const api = (await (await web.request('/api/matches/1/workers')).json()) as { workers: Array<{ name: string }>; progress: { stalled: string[] } };
        expect(api.workers.map((w) => w.name)).toEqual(['g1']);
        expect(api.progress.stalled[0]).toMatch(/^no live worker can start ghost/);
      } finally {
        await opened.value.close();
      }
      // Ctrl-C on the watcher leaves the match running.
      match.child.kill('SIGINT');
      const left = await match.done;
      expect(left.code).toBe(130);
      expect(left.stderr).toMatch(/left match 1 running on the workers; follow it with: arena show 1/);
      expect(await status(sql, 1)).toBe('running');
    } finally {
      await sql.end();
    }
  });

  it('distributed - needs PostgreSQL: one clear line for a SQLite database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-dist-'));
    try {
      const file = join(dir, 'local.db');
      const need = 'arena: distributed matches and workers need a PostgreSQL database: --db postgres://user@host/dbname (or ARENA_DB)';
      const m = await arena(['match', 'reference-bfs', '--size', '2', '--db', file, '--distributed']).done;
      expect([m.code, m.stderr.trim()]).toEqual([1, need]);
      const w = await arena(['worker', '--db', file]).done;
      expect([w.code, w.stderr.trim()]).toEqual([1, need]);
      const l = await arena(['workers', '--db', file]).done;
      expect([l.code, l.stderr.trim()]).toEqual([1, need]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A predicate for waitFor that counts a failing query (tables not there yet, server restarting) as false. */
function tolerant(pred: () => Promise<boolean>): () => Promise<boolean> {
  return () => pred().catch(() => false);
}

/** Collects what a spawned process writes to stderr from now on. */
function collectStderr(child: ChildProcess): { text: string } {
  const box = { text: '' };
  child.stderr!.on('data', (d) => (box.text += d));
  return box;
}
