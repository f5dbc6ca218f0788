import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultDbPath, describeDbLocation, openStoreAt } from '../../src/store/open.ts';
import { migratePg, PG_MIGRATIONS, PG_SCHEMA_VERSION } from '../../src/store/pg/pg-schema.ts';
import type { PgMigration } from '../../src/store/pg/pg-schema.ts';
import { openPgStore } from '../../src/store/pg/pg-store.ts';
import type { NewScramble } from '../../src/store/types.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';

async function sql(url: string, text: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

const scramble: NewScramble = {
  index: 0,
  state: { kind: 'hanoi', pegs: 3, start: 'AB', goal: 'CC' },
  puzzleClass: 'hanoi 2',
  bound: { optimal: 3, lowerBound: 3 },
};

describe.skipIf(skipPgTests())('pg store - PostgreSQL specifics', () => {
  let server: PgServer;
  beforeAll(async () => {
    server = await startPgServer();
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('pg store - migrates a fresh database once and records the version', async () => {
    const url = await server.createDatabase();
    await (await openPgStore(url)).close();
    await (await openPgStore(url)).close();
    const v = await sql(url, 'SELECT version FROM arena.schema_version');
    expect(v.rows).toEqual([{ version: PG_SCHEMA_VERSION }]);
    expect(PG_SCHEMA_VERSION).toBe(PG_MIGRATIONS.length);
  });

  it('pg store - five connections opening a fresh database at once all succeed and migrate it once', async () => {
    const url = await server.createDatabase();
    const stores = await Promise.all(Array.from({ length: 5 }, () => openPgStore(url)));
    const m = await stores[0].createMatch({ config: null, seed: '1', generatorVersion: 'g', bots: ['x'], scrambles: [scramble] });
    for (const s of stores) expect((await s.getMatch(m.id))?.seed).toBe('1');
    await Promise.all(stores.map((s) => s.close()));
    expect((await sql(url, 'SELECT count(*)::int AS n FROM arena.schema_version')).rows[0].n).toBe(1);
  });

  it('pg store - refuses a database whose schema is newer, and one whose arena schema is not ours', async () => {
    const newer = await server.createDatabase();
    await (await openPgStore(newer)).close();
    await sql(newer, 'UPDATE arena.schema_version SET version = $1', [PG_SCHEMA_VERSION + 1]);
    await expect(openPgStore(newer)).rejects.toThrow(`database schema v${PG_SCHEMA_VERSION + 1} is newer than this puzzle-arena (v${PG_SCHEMA_VERSION})`);

    const foreign = await server.createDatabase();
    await sql(foreign, 'CREATE SCHEMA arena; CREATE TABLE arena.stuff (x int)');
    await expect(openPgStore(foreign)).rejects.toThrow(/^not a puzzle-arena database/);
  });

  it('pg store - a failing migration step leaves the database at its old version', async () => {
    const url = await server.createDatabase();
    const pool = new pg.Pool({ connectionString: url });
    try {
      await migratePg(pool);
      const broken: PgMigration[] = [...PG_MIGRATIONS, { version: PG_SCHEMA_VERSION + 1, description: 'bad', sql: 'CREATE TABLE arena.ok (x int); SELEC nonsense' }];
      await expect(migratePg(pool, broken)).rejects.toThrow(/syntax error/);
      expect((await pool.query('SELECT version FROM arena.schema_version')).rows[0].version).toBe(PG_SCHEMA_VERSION);
      expect((await pool.query(`SELECT to_regclass('arena.ok') AS t`)).rows[0].t).toBeNull();
    } finally {
      await pool.end();
    }
  });

  it('pg store - an unreachable server or a missing database is one clear line', async () => {
    const down = `postgres://arena@127.0.0.1:1/nowhere`;
    await expect(openPgStore(down)).rejects.toThrow(/^cannot connect to PostgreSQL at 127\.0\.0\.1:1\/nowhere \(connection refused/);
    await expect(openPgStore(server.url('no_such_db'))).rejects.toThrow(/^PostgreSQL database does not exist/);
    expect(describeDbLocation('postgres://u:secret@h:5/d')).toBe('postgres://u:***@h:5/d');
  });

  it('pg store - --db / ARENA_DB take a postgres URL as is; openStoreAt picks the driver by the location', async () => {
    const url = await server.createDatabase();
    expect(defaultDbPath('/srv/arena', { ARENA_DB: url })).toBe(url);
    const store = await openStoreAt(url);
    try {
      await store.addBot({ name: 'b', kind: 'command', cmd: 'x' });
      expect((await sql(url, 'SELECT name FROM arena.bots')).rows).toEqual([{ name: 'b' }]);
    } finally {
      await store.close();
    }
  });

  it('pg store - stores a move string with a NUL character losslessly, and notes with one', async () => {
    const store = await openPgStore(await server.createDatabase());
    try {
      const m = await store.createMatch({ config: null, seed: '1', generatorVersion: 'g', bots: ['x'], scrambles: [scramble] });
      const [s] = await store.listScrambles(m.id);
      await store.recordResult({ scrambleId: s.id, bot: 'x', verdict: 'invalid', moveCount: 0, moves: 'A\u0000B', wallMs: 1, errorIndex: 0, error: 'bad\u0000', note: 'n\u0000' });
      const [r] = await store.listResults(m.id);
      expect(r.moves).toBe('A\u0000B');
      expect(r.error).toBe('bad\uFFFD');
      expect(r.note).toBe('n\uFFFD');
    } finally {
      await store.close();
    }
  });

  it('pg store - a write in flight during a server restart completes once the server is back', async () => {
    const url = await server.createDatabase();
    const store = await openPgStore(url);
    try {
      const m = await store.createMatch({ config: null, seed: '1', generatorVersion: 'g', bots: ['x', 'y'], scrambles: [scramble] });
      const [s] = await store.listScrambles(m.id);
      await store.recordResult({ scrambleId: s.id, bot: 'x', verdict: 'solved', moveCount: 3, moves: 'ACABCB', wallMs: 1 });
      await server.stop('immediate');
      // Issued while the server is down: it must wait for the restart, not fail.
      const pending = store.recordResult({ scrambleId: s.id, bot: 'y', verdict: 'solved', moveCount: 3, moves: 'ACABCB', wallMs: 2 });
      const reading = store.listSummaries(m.id);
      await new Promise((r) => setTimeout(r, 500));
      await server.start();
      await pending;
      expect((await reading).length).toBeGreaterThanOrEqual(1);
      const rows = await store.listSummaries(m.id);
      expect(rows.map((r) => [r.bot, r.wallMs])).toEqual([
        ['x', 1],
        ['y', 2],
      ]);
    } finally {
      await store.close();
    }
  });
});
