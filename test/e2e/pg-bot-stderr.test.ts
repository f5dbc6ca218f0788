/**
 * A bot's stderr on a distributed match: a real PostgreSQL, `arena match --distributed` and two `arena
 * worker` processes, each starting its own copy of a bot that writes 100,000 bytes to stderr as it starts.
 * Every copy's stderr is joined into the match's one row under the 64 KiB cap (first 48 KiB, last 16 KiB),
 * with every other byte counted, and `arena show --stderr` reads it back from the database. A worker keeps
 * each job's stderr as the job ends, before it stops.
 */
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../../src/store/pg/pg-store.ts';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';
import { ROOT, spawnArena, waitFor } from './helpers.ts';

const FAST = ['--heartbeat', '1s', '--dead-after', '6s'];
const KiB = 1024;
const BYTES = 100_000;

describe.skipIf(skipPgTests())('bot stderr - a distributed match on a real PostgreSQL', () => {
  let server: PgServer;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    server = await startPgServer();
  }, 120_000);
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  afterAll(async () => {
    await server?.destroy();
  });

  const arena = (args: string[]) => {
    const run = spawnArena(args, {});
    children.push(run.child);
    return run;
  };

  it('pg stderr - every worker\'s copy of the bot is kept in the match\'s one row, capped, every other byte counted', { timeout: 300_000 }, async () => {
    const url = await server.createDatabase('stderr');
    const store = await openPgStore(url);
    const loader = pathToFileURL(tsxLoaderPath(ROOT)!).href;
    await store.addBot({ name: 'noisy', kind: 'command', cmd: `${process.execPath} --import ${loader} ${join(ROOT, 'test/fixtures/bots/stderr-writer.ts')} --bytes ${BYTES}` });
    await store.close();
    const sql = new pg.Pool({ connectionString: url, max: 2 });
    sql.on('error', () => undefined);
    try {
      const match = arena(['match', 'noisy', '--size', '2', '--count', '8', '--seed', '3', '--db', url, '--distributed']);
      arena(['worker', '--db', url, '--name', 'w1', ...FAST]);
      arena(['worker', '--db', url, '--name', 'w2', ...FAST]);
      const done = await match.done;
      expect(done.code, done.stderr).toBe(0);
      const ids = (await sql.query(`SELECT id::int FROM arena.matches`)).rows.map((r) => r.id as number);
      expect(ids).toHaveLength(1);
      const id = ids[0]!;
      // Workers keep each job's stderr as the job ends, while their bots live on.
      const kept = async () => ((await sql.query(`SELECT 1 FROM arena.bot_stderr WHERE match_id = $1`, [id])).rowCount ?? 0) > 0;
      expect(await waitFor(kept, 20_000)).toBe(true);
      const stopped = children.slice(1).map((c) => new Promise((r) => c.once('close', r)));
      for (const c of children.slice(1)) c.kill('SIGTERM');
      // A worker keeps what its bots wrote when it stops: wait until both have.
      await Promise.all(stopped);
      const row = (await sql.query(`SELECT head, tail, cut_bytes::bigint AS cut FROM arena.bot_stderr WHERE match_id = $1 AND bot = 'noisy'`, [id])).rows[0] as
        | { head: string; tail: string; cut: string }
        | undefined;
      expect(row).toBeDefined();
      expect(row!.head.startsWith('<script>alert("stderr")</script> first line of stderr\n')).toBe(true);
      expect(row!.tail.endsWith('end of start\n')).toBe(true);
      expect([Buffer.byteLength(row!.head), Buffer.byteLength(row!.tail)]).toEqual([48 * KiB, 16 * KiB]);
      // Each copy wrote BYTES: the kept and the cut add up to a whole number of copies, at least one per worker that played.
      const total = Number(row!.cut) + 64 * KiB;
      const workersPlayed = (await sql.query(`SELECT count(DISTINCT r.worker)::int AS n FROM arena.results r JOIN arena.scrambles s ON s.id = r.scramble_id WHERE s.match_id = $1`, [id])).rows[0].n as number;
      expect(total % BYTES).toBe(0);
      expect(total / BYTES).toBeGreaterThanOrEqual(workersPlayed);
      const shown = await spawnArena(['show', String(id), '--stderr', 'noisy', '--json', '--db', url], {}).done;
      expect(shown.code, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout)[0].cutBytes).toBe(Number(row!.cut));
    } finally {
      await sql.end();
    }
  });
});
