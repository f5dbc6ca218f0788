import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultDbPath } from '../../src/store/open.ts';
import { migrate, MIGRATIONS, SCHEMA_VERSION } from '../../src/store/sqlite/sqlite-schema.ts';
import type { Migration } from '../../src/store/sqlite/sqlite-schema.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { WireMoves } from '../../src/core/types.ts';
import { MoveRecorder } from '../../src/puzzles/move-pieces.ts';
import type { NewMatch } from '../../src/store/types.ts';

/** A match of one 1×2 swaps scramble between `bots`. */
function oneSwapMatch(bots: string[]): NewMatch {
  return {
    config: null,
    seed: '1',
    generatorVersion: 'g',
    bots,
    scrambles: [{ index: 0, state: { kind: 'swaps', rows: 1, cols: 2, tiles: [2, 1] }, puzzleClass: 'swaps 1x2', bound: { lowerBound: 1 } }],
  };
}

describe('openSqliteStore', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-sqlite-'));
    file = path.join(dir, 'arena.db');
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function rawPragma(name: string): unknown {
    const db = new Database(file, { readonly: true });
    try {
      return db.pragma(name, { simple: true });
    } finally {
      db.close();
    }
  }

  it('keeps everything after closing and reopening the file', async () => {
    const a = openSqliteStore(file);
    await a.addBot({ name: 'bot1', kind: 'command', cmd: 'node b.js', stdio: true });
    const m = await a.createMatch({
      config: { n: 1 },
      seed: 'abc',
      generatorVersion: 'g',
      bots: ['bot1'],
      scrambles: [
        { index: 0, state: { kind: 'hanoi', pegs: 3, start: 'AB', goal: 'CC' }, puzzleClass: 'hanoi 2', bound: { optimal: 3, lowerBound: 3 } },
      ],
    });
    const [s] = await a.listScrambles(m.id);
    await a.recordResult({ scrambleId: s.id, bot: 'bot1', verdict: 'solved', moveCount: 3, moves: 'ACABCB', wallMs: 1.5 });
    await a.setMatchStatus(m.id, 'finished');
    const snapshot = async (st: typeof a) => ({
      bots: await st.listBots(),
      matches: await st.listMatches(),
      scrambles: await st.listScrambles(m.id),
      results: await st.allResults(),
    });
    const before = await snapshot(a);
    await a.close();

    const b = openSqliteStore(file);
    try {
      expect(await snapshot(b)).toEqual(before);
      expect((await b.getMatch(m.id))?.status).toBe('finished');
    } finally {
      await b.close();
    }
  });

  it('sees a result recorded by another open connection at once (each write commits)', async () => {
    const writer = openSqliteStore(file);
    const reader = openSqliteStore(file);
    try {
      const m = await writer.createMatch(oneSwapMatch(['x']));
      const [s] = await writer.listScrambles(m.id);
      await writer.recordResult({ scrambleId: s.id, bot: 'x', verdict: 'solved', moveCount: 1, moves: [[1, 2]], wallMs: 1 });
      expect(await reader.listResults(m.id)).toHaveLength(1);
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('keeps a long answer in blocks (result_moves): read back whole, written once, removed with its result', async () => {
    const store = openSqliteStore(file);
    try {
      const m = await store.createMatch(oneSwapMatch(['t', 'p', 'small']));
      const [s] = await store.listScrambles(m.id);
      // Over the 8 MiB inline limit in both forms: 9 M letters, and 2.5 M pairs at 4 bytes.
      const text = 'UDLR'.repeat(2_250_000);
      const pairs = Array.from({ length: 2_500_000 }, (_, i) => [1 + (i % 60_000), 2] as const);
      const blockCount = new Map<string, number>();
      const record = (bot: string, chunks: WireMoves[], form: 'text' | 'pairs') => {
        const r = new MoveRecorder(form);
        chunks.forEach((c) => r.push(c));
        const moves = r.result();
        if (!blockCount.has(bot)) blockCount.set(bot, moves.blocks.length);
        return store.recordResult({ scrambleId: s.id, bot, verdict: 'invalid', moveCount: 0, moves, wallMs: 1 });
      };
      await record('t', [text.slice(0, 5_000_000), text.slice(5_000_000)], 'text');
      await record('p', [pairs.slice(0, 1_000_000), pairs.slice(1_000_000)], 'pairs');
      await record('small', ['UD', 'LR'], 'text');
      await record('t', ['a second write of the pair is dropped'], 'text');
      expect((await store.getResult(s.id, 't'))!.moves).toBe(text);
      // Compared as JSON text: a deep equality of millions of pairs takes the test runner seconds.
      const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
      expect(same((await store.getResult(s.id, 'p'))!.moves, pairs)).toBe(true);
      expect(same((await store.listResults(m.id)).map((r) => r.moves), [text, pairs, 'UDLR'])).toBe(true);
      const raw = new Database(file, { readonly: true });
      const kinds = raw.prepare('SELECT bot, moves_kind FROM results ORDER BY bot').all();
      const blocks = () => (raw.prepare('SELECT count(*) AS n FROM result_moves').get() as { n: number }).n;
      expect(kinds).toEqual([{ bot: 'p', moves_kind: 'packed' }, { bot: 'small', moves_kind: 'text' }, { bot: 't', moves_kind: 'packed' }]);
      // One row per block of the two long answers (the recorder's blocks grow to 1 MiB: about 9 + 10 of
      // them, plus the small first ones); the short answer stays inline.
      const [t, p] = [blockCount.get('t')!, blockCount.get('p')!];
      expect(t).toBeGreaterThanOrEqual(9);
      expect(p).toBeGreaterThanOrEqual(10);
      expect(blocks()).toBe(t + p);
      await store.removeResults('t');
      expect(blocks()).toBe(p);
      raw.close();
    } finally {
      await store.close();
    }
  });

  it('changes its change marker on every committed write, its own or another connection\'s, and not on reads', async () => {
    const writer = openSqliteStore(file);
    const reader = openSqliteStore(file);
    try {
      const m = await writer.createMatch(oneSwapMatch(['x', 'y']));
      const [s] = await writer.listScrambles(m.id);
      const seen = [await reader.changeMarker()];
      await reader.summaryColumns();
      await reader.listResults(m.id);
      expect(await reader.changeMarker()).toBe(seen[0]);
      // Each write by the other connection gives the reader a marker it has not seen.
      const wrote = async (write: () => Promise<unknown>) => {
        await write();
        const now = await reader.changeMarker();
        expect(seen).not.toContain(now);
        seen.push(now);
      };
      await wrote(() => writer.recordResult({ scrambleId: s.id, bot: 'x', verdict: 'solved', moveCount: 1, moves: [[1, 2]], wallMs: 1 }));
      // The exact oracle raising a bound changes what the leaderboard shows: it must change the marker too.
      await wrote(() => writer.setScrambleBound(s.id, { optimal: 1, lowerBound: 1 }));
      await wrote(() => writer.removeResults('x'));
      // The reader's own writes count as well (the same connection does not see data_version move).
      const before = await reader.changeMarker();
      await reader.recordResult({ scrambleId: s.id, bot: 'y', verdict: 'solved', moveCount: 1, moves: [[1, 2]], wallMs: 2 });
      expect(await reader.changeMarker()).not.toBe(before);
      // A write that changes nothing (a retried result) leaves it as it was.
      const after = await reader.changeMarker();
      await reader.recordResult({ scrambleId: s.id, bot: 'y', verdict: 'solved', moveCount: 1, moves: [[1, 2]], wallMs: 2 });
      expect(await reader.changeMarker()).toBe(after);
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('sets WAL, foreign keys and the schema version', async () => {
    await openSqliteStore(file).close();
    expect(rawPragma('journal_mode')).toBe('wal');
    expect(rawPragma('user_version')).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('applies migrations once: reopening an up-to-date file changes nothing', async () => {
    await openSqliteStore(file).close();
    const schemaOf = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all();
      } finally {
        db.close();
      }
    };
    const first = schemaOf();
    await openSqliteStore(file).close();
    await openSqliteStore(file).close();
    expect(schemaOf()).toEqual(first);
    expect(rawPragma('user_version')).toBe(SCHEMA_VERSION);
  });

  it('upgrades a v1 file in place, which then records who played a result', async () => {
    const db = new Database(file);
    migrate(db, MIGRATIONS.slice(0, 1));
    db.close();
    const a = openSqliteStore(file);
    try {
      const m = await a.createMatch({
        config: null,
        seed: '1',
        generatorVersion: 'g',
        bots: ['x'],
        scrambles: [{ index: 0, state: { kind: 'swaps', rows: 1, cols: 3, tiles: [2, 3, 1] }, puzzleClass: 'swaps 1x3', bound: { lowerBound: 2 } }],
      });
      const [s] = await a.listScrambles(m.id);
      await a.recordResult({ scrambleId: s.id, bot: 'x', verdict: 'solved', moveCount: 2, moves: [[1, 2], [2, 3]], wallMs: 1, worker: 'w7', cpu: 'Some CPU' });
      expect((await a.listSummaries(m.id))[0]).toMatchObject({ worker: 'w7', cpu: 'Some CPU' });
    } finally {
      await a.close();
    }
    expect(rawPragma('user_version')).toBe(SCHEMA_VERSION);
  });

  it('applies only the missing migrations, in order, and rolls a failing batch back', async () => {
    await openSqliteStore(file).close();
    const v2: Migration = { version: SCHEMA_VERSION + 1, description: 'extra table', sql: 'CREATE TABLE extra (x INTEGER) STRICT;' };
    const v3bad: Migration = { version: SCHEMA_VERSION + 2, description: 'broken', sql: 'CREATE TABLE extra (y INTEGER);' };
    const db = new Database(file);
    try {
      expect(() => migrate(db, [...MIGRATIONS, v2, v3bad])).toThrow(/already exists/);
      // v2 ran in the same transaction as the failing v3, so neither stuck.
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.prepare(`SELECT count(*) AS n FROM sqlite_schema WHERE name = 'extra'`).get()).toEqual({ n: 0 });
      expect(migrate(db, [...MIGRATIONS, v2])).toBe(SCHEMA_VERSION);
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
      expect(migrate(db, [...MIGRATIONS, v2])).toBe(SCHEMA_VERSION + 1);
    } finally {
      db.close();
    }
    expect(() => openSqliteStore(file)).toThrow(
      `database schema v${SCHEMA_VERSION + 1} is newer than this puzzle-arena (v${SCHEMA_VERSION})`,
    );
  });

  it("upgrades a v1 file to the current schema: every result kept with its id, and the new verdict 'memory' accepted", async () => {
    const db = new Database(file);
    migrate(db, MIGRATIONS.slice(0, 1));
    db.prepare(`INSERT INTO matches VALUES (1, '{}', 's', 'g', '["a"]', 'running', 't', 't')`).run();
    db.prepare(`INSERT INTO scrambles VALUES (1, 1, 0, '{"kind":"swaps","rows":1,"cols":2,"tiles":[2,1]}', 'swaps 1x2', 1, 1)`).run();
    db.prepare(`INSERT INTO scrambles VALUES (2, 1, 1, '{"kind":"swaps","rows":1,"cols":2,"tiles":[2,1]}', 'swaps 1x2', 1, 1)`).run();
    db.prepare(`INSERT INTO results VALUES (7, 1, 'a', 'solved', 1, 'pairs', '[[1,2]]', 1.5, NULL, NULL, NULL, NULL, NULL, 't')`).run();
    expect(() => db.prepare(`INSERT INTO results VALUES (8, 2, 'a', 'memory', 0, 'text', '', 1, NULL, NULL, NULL, NULL, 'x', 't')`).run()).toThrow(/CHECK/);
    db.close();

    const store = openSqliteStore(file);
    try {
      expect(rawPragma('user_version')).toBe(SCHEMA_VERSION);
      expect((await store.listResults(1)).map((r) => [r.verdict, r.moves])).toEqual([['solved', [[1, 2]]]]);
      await store.recordResult({ scrambleId: 2, bot: 'a', verdict: 'memory', moveCount: 0, moves: '', wallMs: 1, cpuMs: 0.75, error: 'over the limit' });
      expect((await store.listSummaries(1)).map((r) => r.verdict)).toEqual(['solved', 'memory']);
      // A result from before CPU time was measured has none; a new one keeps it.
      expect((await store.listSummaries(1)).map((r) => r.cpuMs)).toEqual([undefined, 0.75]);
    } finally {
      await store.close();
    }
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT id FROM results ORDER BY id').all()).toEqual([{ id: 7 }, { id: 8 }]);
    raw.close();
  });

  it('refuses a database with a newer schema version, with a one-line message', async () => {
    await openSqliteStore(file).close();
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openSqliteStore(file)).toThrow(
      `database schema v${SCHEMA_VERSION + 1} is newer than this puzzle-arena (v${SCHEMA_VERSION})`,
    );
  });

  it('refuses a file that is not a SQLite database, with a one-line message', async () => {
    fs.writeFileSync(file, 'this is not a database, just some text that is long enough to fill a header '.repeat(20));
    let message = '';
    try {
      await openSqliteStore(file).close();
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe('not a SQLite database (file is not a database)');
    expect(message).not.toContain('\n');
  });

  it("refuses another program's SQLite database instead of migrating into it", () => {
    const db = new Database(file);
    db.exec('CREATE TABLE notes (body TEXT)');
    db.close();
    expect(() => openSqliteStore(file)).toThrow(/not a puzzle-arena database/);
  });

  it('reports a path that cannot be opened as an error', () => {
    expect(() => openSqliteStore(path.join(dir, 'missing-dir', 'x.db'))).toThrow(/directory does not exist/);
  });
});

describe('defaultDbPath', () => {
  it('is leaderboard.db under the project root by default', () => {
    expect(defaultDbPath('/srv/arena', {})).toBe(path.join('/srv/arena', 'leaderboard.db'));
    expect(defaultDbPath('/srv/arena', { ARENA_DB: '' })).toBe(path.join('/srv/arena', 'leaderboard.db'));
  });

  it('honours ARENA_DB, resolving a relative path against the working directory', () => {
    expect(defaultDbPath('/srv/arena', { ARENA_DB: '/data/x.db' })).toBe('/data/x.db');
    expect(defaultDbPath('/srv/arena', { ARENA_DB: 'rel.db' })).toBe(path.resolve('rel.db'));
    expect(defaultDbPath('/srv/arena', { ARENA_DB: ':memory:' })).toBe(':memory:');
  });
});
