/**
 * The standing ladder on PostgreSQL: its games are distributed matches played by two `arena worker`s; one
 * worker is SIGKILLed while it holds a job of the new bot's placement (the other stopped meanwhile, so the
 * first is sure to hold one, and started again after the kill). Its job goes back to the queue after
 * the heartbeat's dead-after time, the other worker plays it, the bot is placed, and nothing is lost or
 * repeated: one match per ladder game, every (scramble, bot) of every match exactly once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';
import { spawnArena, waitFor } from './helpers.ts';
import { addAstar, astarFolder, LADDER_FLAGS, placedWithInterval, reader, waitView } from './ladder-helpers.ts';

const FAST = ['--heartbeat', '1s', '--dead-after', '6s'];

describe.skipIf(skipPgTests())('ladder e2e - postgres with two workers', () => {
  let server: PgServer;
  const children: ReturnType<typeof spawnArena>[] = [];
  beforeAll(async () => {
    server = await startPgServer();
  });
  afterAll(async () => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    await server?.destroy();
  });
  const spawn = (args: string[]) => {
    const run = spawnArena(args, {});
    let err = '';
    run.child.stderr!.on('data', (d) => (err += d));
    children.push(run);
    return { ...run, log: () => err };
  };

  it('ladder - places a registered bot on workers, one worker killed during placement: nothing lost or repeated', { timeout: 900_000 }, async () => {
    const url = await server.createDatabase('ladder');
    const folder = astarFolder();
    const ladder = spawn(['ladder', '--db', url, ...LADDER_FLAGS]);
    const workers = ['w1', 'w2'].map((name) => spawn(['worker', '--db', url, '--name', name, ...FAST]));
    const log = () => `${ladder.log()}\n--- w1\n${workers[0]!.log()}\n--- w2\n${workers[1]!.log()}`;
    const ctx = await reader(url);
    const sql = new pg.Pool({ connectionString: url, max: 2 });
    sql.on('error', () => undefined);
    try {
      await waitView(ctx, (v) => ['constructive', 'ida-star', 'dijkstra'].every((b) => placedWithInterval(v, b, 1)), 600_000, log);
      // w2 steps out (a clean stop) so that astar's placement starts on w1 alone: with both polling, w2 once
      // took every job of it and w1 never held one to be killed with.
      workers[1]!.child.kill('SIGINT');
      expect((await workers[1]!.done).code, log()).toBe(0);
      const added = await spawnArena([...addAstar(folder), '--db', url], {}).done;
      expect(added.code, added.stderr).toBe(0);

      // Kill w1 while it holds a job of astar's placement; w2 comes back to finish it.
      const held = await waitFor(async () => {
        const r = await sql.query(`SELECT count(*)::int AS n FROM arena.worker_jobs j JOIN arena.workers w ON w.id = j.worker_id WHERE w.name = 'w1' AND j.bot = 'astar'`).catch(() => undefined);
        return (r?.rows[0]?.n ?? 0) > 0;
      }, 300_000);
      expect(held, log()).toBe(true);
      workers[0]!.child.kill('SIGKILL');
      workers[1] = spawn(['worker', '--db', url, '--name', 'w2', ...FAST]);

      await waitView(ctx, (v) => placedWithInterval(v, 'astar', 1), 600_000, log);
      const dead = await sql.query(`SELECT stop_reason FROM arena.workers WHERE name = 'w1'`);
      expect(dead.rows.map((r) => r.stop_reason)).toEqual(['no heartbeat for 6 s']);
      ladder.child.kill('SIGINT');
      expect((await ladder.done).code).toBe(0);

      // One match per ladder game, each finished with every (scramble, bot) exactly once.
      const games = await ctx.store.ladder().listGames();
      const matches = await ctx.store.listMatches(10_000);
      expect(games.every((g) => g.matchId !== undefined)).toBe(true);
      expect(new Set(games.map((g) => g.matchId))).toEqual(new Set(matches.map((m) => m.id)));
      expect(matches.every((m) => m.status === 'finished')).toBe(true);
      const counts = await sql.query(
        `SELECT s.match_id::int AS m, count(DISTINCT s.id)::int AS scrambles, count(r.id)::int AS results, count(DISTINCT (r.scramble_id, r.bot))::int AS pairs
           FROM arena.scrambles s LEFT JOIN arena.results r ON r.scramble_id = s.id GROUP BY s.match_id`,
      );
      for (const c of counts.rows) {
        expect(c.results, `match ${c.m}`).toBe(c.scrambles * 2);
        expect(c.pairs).toBe(c.results);
      }
      const rows = await sql.query(`SELECT DISTINCT worker FROM arena.results WHERE bot = 'astar'`);
      expect(rows.rows.map((r) => r.worker).sort()).toContain('w2');
    } finally {
      await sql.end();
      await ctx.close();
    }
  });
});
