import { existsSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrate, MIGRATIONS } from '../../src/store/sqlite/sqlite-schema.ts';
import { auditBench } from './audit-helpers.ts';

// `arena audit` on real SQLite files through the real CLI. Two real matches are played once; each test edits
// a copy of the database directly with better-sqlite3, as someone with write access to the file (but not
// the key beside it) would, and the audit must name what changed.

const { dir, pristine, arena, tampered, failsWith } = auditBench('arena-audit-', { headMarker: false });

/** The id of a result row, by scramble (1-based) and bot, in match 1. */
const row = (n: number, bot: string) => `(SELECT r.id FROM results r JOIN scrambles s ON s.id = r.scramble_id WHERE s.match_id = 1 AND s.idx = ${n - 1} AND r.bot = '${bot}')`;

describe('arena audit (SQLite, real CLI)', () => {
  beforeAll(async () => {
    // Match 1: a solver and a bot that declines sliding (results without moves). Match 2: from a file.
    const one = await arena(['match', 'reference-bfs', 'hanoi-iterative', '--size', '3', '--count', '3', '--seed', 'audit', '--db', pristine, '--quiet']);
    expect(one.code, one.stderr).toBe(0);
    const file = join(dir, 'scrambles.jsonl');
    const made = await arena(['scramble', 'sliding', '--size', '3', '--count', '2', '--seed', 'file', '--json']);
    writeFileSync(file, made.stdout);
    const two = await arena(['match', 'reference-bfs', '--scrambles', file, '--db', pristine, '--quiet']);
    expect(two.code, two.stderr).toBe(0);
  }, 120_000);

  it('audit - an untouched database holds: every answer replayed, every seal checked; the key is private to its owner', async () => {
    expect(statSync(`${pristine}.key`).mode & 0o777).toBe(0o600);
    const r = await arena(['audit', '--db', pristine]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^match 1 \(finished\): 3 scrambles regenerated from its seed, 6 results replayed/m);
    expect(r.stdout).toMatch(/^match 2 \(finished\): 2 scrambles from a file \(not regenerated\)/m);
    expect(r.stdout).toMatch(/note: its scrambles came from a file .* have no seed to be regenerated from/);
    expect(r.stdout).toMatch(/^integrity: every seal checked with the key in .*pristine\.db\.key$/m);
    expect(r.stdout).toMatch(/^audit: everything checked holds \(2 match\(es\)\)$/m);
    const json = JSON.parse((await arena(['audit', '1', '--db', pristine, '--json'])).stdout);
    expect(json).toMatchObject({ ok: true, integrity: { checked: true }, problems: [], matches: [{ match: 1, scrambles: 3, results: 6, scrambleSource: 'regenerated' }] });
  });

  it('audit - a verdict changed (solved turned into a timeout) is caught by its seal', async () => {
    await failsWith(tampered(`UPDATE results SET verdict = 'timeout', error = 'no final answer' WHERE id = ${row(1, 'reference-bfs')}`),
      /^match 1, scramble 1, bot reference-bfs: the row does not match its seal: its verdict, move count, times/m);
  });

  it('audit - a verdict changed where replay sees it: unsupported turned into solved', async () => {
    await failsWith(tampered(`UPDATE results SET verdict = 'solved', error = NULL WHERE id = ${row(2, 'hanoi-iterative')}`),
      /^match 1, scramble 2, bot hanoi-iterative: recorded solved with 0 moves, but the stored moves are 0 legal moves that do not solve it/m,
      /^match 1, scramble 2, bot hanoi-iterative: the row does not match its seal/m);
  });

  it('audit - a time changed is caught by its seal', async () => {
    await failsWith(tampered(`UPDATE results SET wall_ms = wall_ms * 10 + 1 WHERE id = ${row(2, 'reference-bfs')}`),
      /^match 1, scramble 2, bot reference-bfs: the row does not match its seal/m);
  });

  it('audit - a row deleted: the finished match lacks the pair, and the sealed numbering has a gap', async () => {
    await failsWith(tampered(`DELETE FROM results WHERE id = ${row(3, 'reference-bfs')}`),
      /^match 1, scramble 3, bot reference-bfs: no result, though the match is finished: a row was deleted$/m,
      /^match 1: sealed result number \d of 6 is missing: a row was deleted$/m);
  });

  it('audit - a row inserted: a forged solved result in place of a decline has no seal; a copied seal does not fit', async () => {
    const forge = (seal: string) => `DELETE FROM results WHERE id = ${row(1, 'hanoi-iterative')};
      INSERT INTO results (scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms, created_at${seal ? ', seq, seal, moves_sha256' : ''})
      SELECT scramble_id, 'hanoi-iterative', 'solved', move_count, moves_kind, moves, 0.5, created_at${seal ? ', seq, seal, moves_sha256' : ''} FROM results WHERE id = ${row(1, 'reference-bfs')}`;
    await failsWith(tampered(forge('')),
      /^match 1, scramble 1, bot hanoi-iterative: the result has no seal, though it was recorded after the database got its key: inserted directly/m);
    await failsWith(tampered(forge('copied')),
      /^match 1, scramble 1, bot hanoi-iterative: a second result numbered \d: it was copied$/m,
      /^match 1, scramble 1, bot hanoi-iterative: the row does not match its seal/m);
    await failsWith(tampered(`INSERT INTO results (scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms, created_at)
      SELECT scramble_id, 'intruder', verdict, move_count, moves_kind, moves, 1, created_at FROM results WHERE id = ${row(1, 'reference-bfs')}`),
      /^match 1, scramble 1, bot intruder: a result for "intruder", who is not a bot of this match$/m,
      /^match 1, scramble 1, bot intruder: the result has no seal/m);
  });

  it('audit - a whole match deleted (its results, scrambles and row) leaves a gap in the sealed matches', async () => {
    await failsWith(tampered(`DELETE FROM results WHERE scramble_id IN (SELECT id FROM scrambles WHERE match_id = 2);
      DELETE FROM scrambles WHERE match_id = 2; DELETE FROM matches WHERE id = 2`),
      /^database: sealed match number 2 of 2 is missing: a match was deleted$/m);
  });

  it('audit - moves changed: replay and the seal both see it', async () => {
    await failsWith(tampered(`UPDATE results SET moves = substr(moves, 1, length(moves) - 1) WHERE id = ${row(1, 'reference-bfs')}`),
      /^match 1, scramble 1, bot reference-bfs: recorded solved with \d+ moves, but the stored moves are \d+ legal moves that do not solve it/m,
      /^match 1, scramble 1, bot reference-bfs: the stored moves changed after they were sealed$/m);
  });

  it("audit - a scramble changed: seeded ones are regenerated, a file's is held by its seal", async () => {
    await failsWith(tampered(`UPDATE scrambles SET state = '{"kind":"sliding","rows":3,"cols":3,"tiles":[1,2,3,4,5,6,7,0,8]}' WHERE match_id = 1 AND idx = 0`),
      /^match 1, scramble 1: the stored state is not the one the match's seed generates$/m,
      /^match 1, scramble 1: the stored state changed after it was sealed$/m);
    await failsWith(tampered(`UPDATE scrambles SET state = '{"kind":"sliding","rows":3,"cols":3,"tiles":[1,2,3,4,5,6,7,0,8]}' WHERE match_id = 2 AND idx = 1`),
      /^match 2, scramble 2: the stored state changed after it was sealed$/m);
  });

  it('audit - without the key it is incomplete (exit 2) and checks the rest; a foreign key is a problem', async () => {
    const copy = tampered('SELECT 1', { key: false });
    expect(existsSync(`${copy}.key`)).toBe(false);
    const r = await arena(['audit', '--db', copy]);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stdout).toMatch(/^no key: integrity of times\/verdicts not checked \(no key file .*copy-\d+\.db\.key/m);
    expect(r.stdout).toMatch(/^incomplete: 8 results unchecked, key not found at .*copy-\d+\.db\.key; pass --key FILE/m);
    const other = join(dir, 'other.db');
    expect((await arena(['match', 'reference-bfs', '--size', '2', '--count', '1', '--db', other, '--quiet'])).code).toBe(0);
    const foreign = await arena(['audit', '--db', pristine, '--key', `${other}.key`]);
    expect(foreign.code).toBe(1);
    expect(foreign.stdout).toMatch(/^database: the key in .*other\.db\.key is not this database's key, so integrity cannot be checked/m);
    rmSync(other, { force: true });
  });

  it('audit - a database of the schema before seals opens, audits by replay, and is sealed from its next match on', async () => {
    const old = join(dir, 'old.db');
    const db = new Database(old);
    try {
      migrate(db, MIGRATIONS.filter((m) => m.version <= 6));
      const results = 'scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms, reported_ms, claimed_optimal, note, error_index, error, created_at, worker, cpu, nodes, cpu_ms';
      db.exec(`ATTACH '${pristine}' AS p;
        INSERT INTO matches SELECT id, config, seed, generator_version, bots, status, created_at, updated_at FROM p.matches WHERE id = 1;
        INSERT INTO scrambles SELECT id, match_id, idx, state, puzzle_class, optimal, lower_bound, bound_note FROM p.scrambles WHERE match_id = 1;
        INSERT INTO results (${results}) SELECT ${results.split(', ').map((c) => `r.${c}`).join(', ')} FROM p.results r JOIN p.scrambles s ON s.id = r.scramble_id WHERE s.match_id = 1;`);
    } finally {
      db.close();
    }
    const before = await arena(['audit', '--db', old]);
    expect(before.code, before.stdout).toBe(0);
    expect(before.stdout).toMatch(/^match 1 \(finished\): 3 scrambles regenerated from its seed, 6 results replayed/m);
    expect(before.stdout).toMatch(/^no key: integrity of times\/verdicts not checkable \(the database never had a key/m);
    expect(existsSync(`${old}.key`)).toBe(false);

    expect((await arena(['match', 'reference-bfs', '--size', '2', '--count', '2', '--db', old, '--quiet'])).code).toBe(0);
    expect(existsSync(`${old}.key`)).toBe(true);
    const after = await arena(['audit', '--db', old]);
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).toMatch(/note: the match was created before the database got its key/);
    expect(after.stdout).toMatch(/note: 6 result\(s\) were recorded before the database got its key: checked by replay only/);
    expect(after.stdout).toMatch(/^integrity: every seal checked/m);
    // The new match is sealed: an edit there is caught.
    const db2 = new Database(old);
    db2.exec(`UPDATE results SET wall_ms = wall_ms + 5 WHERE scramble_id IN (SELECT id FROM scrambles WHERE match_id = 2 AND idx = 1)`);
    db2.close();
    await failsWith(old, /^match 2, scramble 2, bot reference-bfs: the row does not match its seal/m);
  });

  it('audit - a database sealed before the head existed (schema v10) gets its head from the first open with its key, and holds', async () => {
    // Schema v10 as an older arena left it: the head's columns and the optima and ladder seals not there yet.
    const legacy = tampered(`
      ALTER TABLE seal_meta DROP COLUMN head_seal; ALTER TABLE seal_meta DROP COLUMN pre_matches; ALTER TABLE seal_meta DROP COLUMN pre_results;
      ALTER TABLE seal_meta DROP COLUMN pre_optima; ALTER TABLE seal_meta DROP COLUMN pre_versions; ALTER TABLE seal_meta DROP COLUMN pre_games;
      ALTER TABLE seal_meta DROP COLUMN sealed_games; ALTER TABLE seal_meta DROP COLUMN games_seal;
      ALTER TABLE optima DROP COLUMN seal; ALTER TABLE bot_versions DROP COLUMN seal; ALTER TABLE ladder_games DROP COLUMN seal; ALTER TABLE ladder_games DROP COLUMN seq;
      ALTER TABLE bots DROP COLUMN snapshot; ALTER TABLE bots DROP COLUMN runtime; DROP TABLE sessions; DROP TABLE participants;
      ALTER TABLE bots DROP COLUMN owner; ALTER TABLE bots DROP COLUMN source; DROP TABLE submissions; DROP TABLE version_blocks; DROP TABLE versions; DROP TABLE bot_stderr;
      PRAGMA user_version = 10;`);
    expect(existsSync(`${legacy}.key.head`)).toBe(false);
    const r = await arena(['audit', '--db', legacy]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^audit: everything checked holds \(2 match\(es\)\)$/m);
    const db = new Database(legacy, { readonly: true });
    expect(db.prepare('SELECT head_seal IS NOT NULL AS sealed FROM seal_meta').get()).toEqual({ sealed: 1 });
    db.close();
    // Once at v11, a head whose seal is removed is not resealed by the next open: the audit names it.
    await failsWith(tampered(`UPDATE seal_meta SET head_seal = NULL`), /^database: the database's key check and watermark carry no seal/m);
  });

  it('audit - an unknown match or a bad id is one clear line', async () => {
    const r = await arena(['audit', '99', '--db', pristine]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^arena: no match with id 99$/m);
    expect((await arena(['audit', 'x', '--db', pristine])).stderr).toMatch(/a match id is a whole number/);
  });
});
