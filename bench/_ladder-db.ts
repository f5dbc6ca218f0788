/**
 * A ladder database of `matches` finished ladder games (two bots of eight, `perMatch` scrambles each, so
 * matches × perMatch × 2 results), written in bulk straight through the drivers (recording a million
 * results one call at a time would take most of an hour on PostgreSQL): versions, games, matches,
 * scrambles and results, then the ladder's activity. Deterministic: the same sizes give the same rows.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { openPgStore } from '../src/store/pg/pg-store.ts';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.ts';

export const BOTS = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta'];
const STATE = JSON.stringify({ kind: 'sliding', rows: 3, cols: 3, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 0] });
const CLASS = 'sliding 3x3';

/** The pair of bots of game m (every pair in turn). */
function pair(m: number): [number, number] {
  const pairs: [number, number][] = [];
  for (let a = 0; a < BOTS.length; a++) for (let b = a + 1; b < BOTS.length; b++) pairs.push([a, b]);
  return pairs[m % pairs.length]!;
}

function activity(): string {
  return JSON.stringify({ state: 'running', doing: 'waiting', why: 'bench', at: new Date().toISOString(), pid: 1, classes: [CLASS], rule: { targetWidth: 200, minGames: 10, maxGames: 100 }, budgetLeft: 0 });
}

/** Fills a fresh SQLite file. */
export function fillSqlite(file: string, matches: number, perMatch: number): void {
  openSqliteStore(file).close();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const now = new Date().toISOString();
  const version = db.prepare(`INSERT INTO bot_versions (bot, number, hash, command, status, classes, current, created_at, updated_at) VALUES (?, 1, ?, ?, 'placed', '["${CLASS}"]', 1, ?, ?)`);
  const match = db.prepare(`INSERT INTO matches (id, config, seed, generator_version, bots, status, created_at, updated_at) VALUES (?, '{}', ?, 'bench', ?, 'finished', ?, ?)`);
  const game = db.prepare(`INSERT INTO ladder_games (seed, puzzle_class, purpose, entries, why, match_id, created_at) VALUES (?, '${CLASS}', 'upkeep', ?, 'bench', ?, ?)`);
  const scramble = db.prepare(`INSERT INTO scrambles (id, match_id, idx, state, puzzle_class, optimal, lower_bound) VALUES (?, ?, ?, '${STATE}', '${CLASS}', 20, 20)`);
  const result = db.prepare(`INSERT INTO results (scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms, created_at) VALUES (?, ?, 'solved', ?, 'text', '', ?, ?)`);
  db.transaction(() => {
    BOTS.forEach((b, i) => version.run(b, `h${i}`, b, now, now));
    let sid = 0;
    for (let m = 1; m <= matches; m++) {
      const [a, b] = pair(m);
      const seed = `ladder-bench/${m}`;
      match.run(m, seed, JSON.stringify([BOTS[a], BOTS[b]]), now, now);
      game.run(seed, JSON.stringify([{ bot: BOTS[a], versionId: a + 1 }, { bot: BOTS[b], versionId: b + 1 }]), m, now);
      for (let i = 0; i < perMatch; i++) {
        scramble.run(++sid, m, i);
        // The stronger bot (lower index) wins most: ratings spread out as on a real ladder.
        const aWins = (m * 31 + i * 17) % 10 < 6 + Math.min(3, b - a);
        result.run(sid, BOTS[a], aWins ? 20 : 22, 5 + ((i * 7 + m) % 40), now);
        result.run(sid, BOTS[b], aWins ? 22 : 20, 5 + ((i * 13 + m) % 40), now);
      }
    }
    db.prepare(`INSERT INTO ladder_state (key, value) VALUES ('activity', ?)`).run(activity());
  })();
  db.close();
}

/** Fills a fresh PostgreSQL database with the same rows, by set-returning SQL. */
export async function fillPg(url: string, matches: number, perMatch: number): Promise<void> {
  await (await openPgStore(url)).close();
  const sql = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const now = new Date().toISOString();
    const pairs = Array.from({ length: matches }, (_, k) => pair(k + 1));
    await sql.query('BEGIN');
    for (const [i, b] of BOTS.entries()) {
      await sql.query(`INSERT INTO arena.bot_versions (bot, number, hash, command, status, classes, current, created_at, updated_at) VALUES ($1, 1, $2, $1, 'placed', '["${CLASS}"]', 1, $3, $3)`, [b, `h${i}`, now]);
    }
    await sql.query(`CREATE TEMP TABLE p (m int PRIMARY KEY, a int, b int)`);
    await sql.query(`INSERT INTO p SELECT * FROM unnest($1::int[], $2::int[], $3::int[])`, [pairs.map((_, k) => k + 1), pairs.map((p) => p[0]), pairs.map((p) => p[1])]);
    await sql.query(`CREATE TEMP TABLE names (i int PRIMARY KEY, name text)`);
    await sql.query(`INSERT INTO names SELECT * FROM unnest($1::int[], $2::text[])`, [BOTS.map((_, i) => i), BOTS]);
    await sql.query(
      `INSERT INTO arena.matches (id, config, seed, generator_version, bots, status) OVERRIDING SYSTEM VALUE
       SELECT p.m, '{}', 'ladder-bench/' || p.m, 'bench', json_build_array(na.name, nb.name), 'finished'
       FROM p JOIN names na ON na.i = p.a JOIN names nb ON nb.i = p.b`,
    );
    await sql.query(`SELECT setval(pg_get_serial_sequence('arena.matches', 'id'), $1)`, [matches]);
    await sql.query(
      `INSERT INTO arena.ladder_games (seed, puzzle_class, purpose, entries, why, match_id, created_at)
       SELECT 'ladder-bench/' || p.m, '${CLASS}', 'upkeep',
              json_build_array(json_build_object('bot', na.name, 'versionId', p.a + 1), json_build_object('bot', nb.name, 'versionId', p.b + 1))::text, 'bench', p.m, $1
       FROM p JOIN names na ON na.i = p.a JOIN names nb ON nb.i = p.b ORDER BY p.m`,
      [now],
    );
    await sql.query(
      `INSERT INTO arena.scrambles (id, match_id, idx, state, puzzle_class, optimal, lower_bound) OVERRIDING SYSTEM VALUE
       SELECT (p.m - 1) * $1 + i + 1, p.m, i, '${STATE}'::json, '${CLASS}', 20, 20 FROM p, generate_series(0, $1 - 1) i`,
      [perMatch],
    );
    await sql.query(`SELECT setval(pg_get_serial_sequence('arena.scrambles', 'id'), $1)`, [matches * perMatch]);
    for (const side of ['a', 'b'] as const) {
      await sql.query(
        `INSERT INTO arena.results (scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms)
         SELECT (p.m - 1) * $1 + g.k + 1, n.name, 'solved',
                CASE WHEN ((p.m * 31 + g.k * 17) % 10 < 6 + least(3, p.b - p.a)) = ${side === 'a'} THEN 20 ELSE 22 END, 'text', '',
                5 + ((g.k * ${side === 'a' ? 7 : 13} + p.m) % 40)
         FROM p, generate_series(0, $1 - 1) AS g(k), names n WHERE n.i = p.${side}`,
        [perMatch],
      );
    }
    await sql.query(`INSERT INTO arena.ladder_state (key, value) VALUES ('activity', $1)`, [activity()]);
    await sql.query('COMMIT');
    await sql.query('ANALYZE');
  } finally {
    await sql.end();
  }
}
