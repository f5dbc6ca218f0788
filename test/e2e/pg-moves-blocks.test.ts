import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WireMoves } from '../../src/core/types.ts';
import { createPgPool } from '../../src/store/pg/pg-connect.ts';
import { migratePg, PG_MIGRATIONS } from '../../src/store/pg/pg-schema.ts';
import { openPgStore } from '../../src/store/pg/pg-store.ts';
import type { Store } from '../../src/store/types.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';

async function pieces(store: Store, scrambleId: number, bot: string): Promise<WireMoves[]> {
  const out: WireMoves[] = [];
  for await (const p of store.readMoves(scrambleId, bot)) out.push(p);
  return out;
}

describe.skipIf(skipPgTests())('pg store - answers in blocks (schema v7)', () => {
  let server: PgServer;
  beforeAll(async () => {
    server = await startPgServer();
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('pg schema v7 - splits the long answers a v6 database holds whole into blocks, leaving short ones inline', async () => {
    const url = await server.createDatabase('v6');
    const pool = createPgPool(url);
    await migratePg(pool, PG_MIGRATIONS.filter((m) => m.version <= 6));
    const { rows } = await pool.query<{ id: number }>(
      `WITH m AS (INSERT INTO arena.matches (config, seed, generator_version, bots, status) VALUES ('{}', 's', 'g', '["a"]', 'finished') RETURNING id)
       INSERT INTO arena.scrambles (match_id, idx, state, puzzle_class, lower_bound)
       SELECT m.id, i, '{"kind":"hanoi","pegs":3,"start":"AA","goal":"CC"}', 'hanoi 2', 3 FROM m, generate_series(0, 2) i RETURNING id`,
    );
    // é is two bytes: blocks must split between characters, not inside one.
    const text = 'ACé'.repeat(3_000_000);
    const pairs = Array.from({ length: 1_000_000 }, (_, k): [number, number] => [k, k + 1]);
    const insert = `INSERT INTO arena.results (scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms) VALUES ($1, 'a', 'solved', 3, $2, $3, 1)`;
    await pool.query(insert, [rows[0].id, 'text', text]);
    await pool.query(insert, [rows[1].id, 'pairs', JSON.stringify(pairs)]);
    await pool.query(insert, [rows[2].id, 'text', 'ACAB']);
    await pool.end();

    const store = await openPgStore(url);
    try {
      const t = await pieces(store, rows[0].id, 'a');
      expect(t.length).toBeGreaterThan(9);
      expect(Math.max(...t.map((p) => Buffer.byteLength(p as string)))).toBeLessThanOrEqual(1 << 20);
      expect(t.join('')).toBe(text);
      const p = await pieces(store, rows[1].id, 'a');
      expect(p.length).toBeGreaterThan(2);
      expect(JSON.stringify((p as Array<Array<[number, number]>>).flat())).toBe(JSON.stringify(pairs));
      expect((await store.getResult(rows[1].id, 'a'))!.moves).toEqual(pairs);
      expect(await pieces(store, rows[2].id, 'a')).toEqual(['ACAB']);
      const kinds = new pg.Client({ connectionString: url });
      await kinds.connect();
      const k = await kinds.query<{ moves_kind: string }>(`SELECT moves_kind FROM arena.results ORDER BY scramble_id`);
      await kinds.end();
      expect(k.rows.map((r) => r.moves_kind)).toEqual(['packed', 'packed', 'text']);
    } finally {
      await store.close();
    }
  });

  it('pg store - the change marker moves once another connection commits a result, and stays while only reads happen', async () => {
    const url = await server.createDatabase('marker');
    const reader = await openPgStore(url);
    const writer = await openPgStore(url);
    try {
      const m = await writer.createMatch({
        config: {},
        seed: 's',
        generatorVersion: 'g',
        bots: ['a'],
        scrambles: [{ index: 0, state: { kind: 'hanoi', pegs: 3, start: 'AA', goal: 'CC' }, puzzleClass: 'hanoi 2', bound: { lowerBound: 3 } }],
      });
      const [s] = await writer.listScrambles(m.id);
      const before = await reader.changeMarker();
      await writer.listSummaries(m.id);
      await reader.summaryColumns();
      expect(await reader.changeMarker()).toBe(before);
      // A result written in an open transaction: whatever the marker says meanwhile, the commit moves it.
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query('BEGIN');
      await c.query(`INSERT INTO arena.results (scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms) VALUES ($1, 'b', 'solved', 3, 'text', 'ACABCB', 1)`, [s.id]);
      const during = await reader.changeMarker();
      await c.query('COMMIT');
      await c.end();
      const after = await reader.changeMarker();
      expect(after).not.toBe(during);
      expect(after).not.toBe(before);
      await writer.recordResult({ scrambleId: s.id, bot: 'a', verdict: 'solved', moveCount: 3, moves: 'ACABCB', wallMs: 1 });
      expect(await reader.changeMarker()).not.toBe(after);
    } finally {
      await reader.close();
      await writer.close();
    }
  });
});
