import { copyFileSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { openContext } from '../../src/app/context.ts';
import { RECORDS } from '../../src/app/seal-keys.ts';
import { puzzleOf } from '../../src/puzzles/index.ts';
import { stateKey } from '../../src/referee/refine-bounds.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { auditBench } from './audit-helpers.ts';

// The forgeries of issue 29 that passed `arena audit` before the seals covered the watermark, the key check,
// the optima cache and the ladder: each done with real SQL on a copy of a real SQLite database (write access
// to the file, not the key beside it), each audited by the real CLI, each failing it.

const { dir, pristine, arena, tampered, failsWith } = auditBench('arena-forgery-');

/** The winner of each scramble of match 1, by `arena show --json`. */
async function winners(file: string): Promise<string[]> {
  const r = await arena(['show', '1', '--db', file, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { scrambles: { winner?: string }[] }).scrambles.map((s) => s.winner ?? '-');
}

describe('arena audit against forgeries (SQLite, real CLI, real SQL)', () => {
  beforeAll(async () => {
    // Match 1: two solvers of sliding 3x3 that both find optimal answers (wins go by time). Match 2: ida-star
    // on 4x4, whose exact optima the oracle proves and caches.
    const one = await arena(['match', 'ida-star', 'reference-bfs', '--size', '3', '--count', '3', '--seed', 'forge', '--db', pristine, '--quiet']);
    expect(one.code, one.stderr).toBe(0);
    const two = await arena(['match', 'ida-star', '--size', '4', '--count', '2', '--walk', '40', '--seed', 'o', '--db', pristine, '--quiet']);
    expect(two.code, two.stderr).toBe(0);
    // Ladder rows, written as the ladder writes them: through the store of a process holding the key.
    const ctx = await openContext({ db: pristine, ...RECORDS });
    if (!ctx.ok) throw new Error(ctx.reason);
    const ladder = ctx.value.store.ladder();
    const a = await ladder.saveVersion({ bot: 'ida-star', hash: 'a'.repeat(64), command: 'ida-star' });
    const b = await ladder.saveVersion({ bot: 'reference-bfs', hash: 'b'.repeat(64), command: 'reference-bfs' });
    const game = await ladder.addGame({ seed: 'forge', puzzleClass: 'sliding 3x3', purpose: 'upkeep', entries: [{ bot: 'ida-star', versionId: a.id }, { bot: 'reference-bfs', versionId: b.id }], why: 'test' });
    await ladder.setGameMatch(game.id, 1);
    await ctx.value.close();
  }, 180_000);

  it('forgery - an untouched database holds, optima and ladder rows sealed', async () => {
    const db = new Database(pristine, { readonly: true });
    const counts = db.prepare(`SELECT (SELECT count(*) FROM optima WHERE seal IS NOT NULL) AS optima, (SELECT count(*) FROM bot_versions WHERE seal IS NOT NULL) AS versions,
      (SELECT count(*) FROM ladder_games WHERE seal IS NOT NULL) AS games, (SELECT head_seal IS NOT NULL FROM seal_meta) AS head`).get();
    db.close();
    expect(counts).toEqual({ optima: 2, versions: 2, games: 1, head: 1 });
    const r = await arena(['audit', '--db', pristine]);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^audit: everything checked holds \(2 match\(es\)\)$/m);
  });

  it('forgery - watermark raised, a match unsealed, its times and limit rewritten so the other bot wins: fails', async () => {
    // Every win goes to whoever is faster: give reference-bfs 1 ms and ida-star the limit's worth.
    const file = tampered(`
      UPDATE seal_meta SET after_match = 100, after_result = 1000;
      UPDATE matches SET seal = NULL, seq = NULL, count_seal = NULL, sealed_results = 0,
        config = json_set(config, '$.timeLimitMs', 600000) WHERE id = 1;
      UPDATE seal_meta SET sealed_matches = 1, matches_seal = NULL;
      UPDATE scrambles SET seal = NULL, state_sha256 = NULL WHERE match_id = 1;
      UPDATE results SET seal = NULL, seq = NULL, moves_sha256 = NULL,
        wall_ms = CASE bot WHEN 'reference-bfs' THEN 1 ELSE 500000 END, cpu_ms = NULL
        WHERE scramble_id IN (SELECT id FROM scrambles WHERE match_id = 1);`);
    // The forgery works on the report: the other bot now wins what it lost.
    expect(await winners(file)).toEqual(['reference-bfs', 'reference-bfs', 'reference-bfs']);
    await failsWith(file, /^database: the database's watermark \(which rows predate its key\) or its count of older rows changed after they were sealed$/m);
  });

  it('forgery - seals removed (no watermark change): each unsealed row is named, and more rows are unsealed than predate the key', async () => {
    await failsWith(tampered(`UPDATE results SET seal = NULL WHERE id IN (SELECT id FROM results ORDER BY id LIMIT 2); UPDATE matches SET seal = NULL WHERE id = 2`),
      /^match 1, scramble \d, bot [a-z-]+: the result has no seal, though it was recorded after the database got its key/m,
      /^match 2: the match has no seal, though it was created after the database got its key/m,
      /^database: 2 results have no seal, but only 0 predate the database's key/m,
      /^database: 1 matches have no seal, but only 0 predate the database's key/m);
    await failsWith(tampered(`UPDATE seal_meta SET head_seal = NULL`), /^database: the database's key check and watermark carry no seal: it was removed/m);
  });

  it('forgery - everything unsealed, the watermark raised, and the database taken back to the schema before the head: fails', async () => {
    // Laundering: every seal and count removed, the watermark over every row, and the head's columns dropped
    // so that the next open migrates again and would seal a head over the forged watermark.
    const file = tampered(`
      UPDATE seal_meta SET after_match = 100, after_result = 1000, sealed_matches = 0, matches_seal = NULL;
      UPDATE matches SET seal = NULL, seq = NULL, count_seal = NULL, sealed_results = 0;
      UPDATE scrambles SET seal = NULL, state_sha256 = NULL; UPDATE results SET seal = NULL, seq = NULL, moves_sha256 = NULL;
      DELETE FROM ladder_games; DELETE FROM bot_versions; DELETE FROM optima;
      ALTER TABLE seal_meta DROP COLUMN head_seal; ALTER TABLE seal_meta DROP COLUMN pre_matches; ALTER TABLE seal_meta DROP COLUMN pre_results;
      ALTER TABLE seal_meta DROP COLUMN pre_optima; ALTER TABLE seal_meta DROP COLUMN pre_versions; ALTER TABLE seal_meta DROP COLUMN pre_games;
      ALTER TABLE seal_meta DROP COLUMN sealed_games; ALTER TABLE seal_meta DROP COLUMN games_seal;
      ALTER TABLE optima DROP COLUMN seal; ALTER TABLE bot_versions DROP COLUMN seal; ALTER TABLE ladder_games DROP COLUMN seal; ALTER TABLE ladder_games DROP COLUMN seq;
      ALTER TABLE bots DROP COLUMN snapshot; ALTER TABLE bots DROP COLUMN runtime; DROP TABLE sessions; DROP TABLE participants;
      ALTER TABLE bots DROP COLUMN owner; ALTER TABLE bots DROP COLUMN source; DROP TABLE submissions; DROP TABLE version_blocks; DROP TABLE versions; DROP TABLE bot_stderr;
      PRAGMA user_version = 10;`);
    await failsWith(file, /^database: the database's key check and watermark carry no seal: it was removed/m);
    // And a later run with the key does not seal it either.
    expect((await arena(['matches', '--db', file])).code).toBe(0);
    await failsWith(file, /^database: the database's key check and watermark carry no seal/m);
  });

  it('forgery - the key check and every seal removed, then the owner runs a match: the database is not given the key again, and still fails', async () => {
    const file = tampered(`UPDATE seal_meta SET key_check = NULL, after_match = NULL, after_result = NULL, head_seal = NULL, matches_seal = NULL, sealed_matches = 0;
      UPDATE matches SET seal = NULL, seq = NULL, count_seal = NULL, sealed_results = 0; UPDATE results SET seal = NULL, seq = NULL, moves_sha256 = NULL`);
    const played = await arena(['match', 'reference-bfs', '--size', '2', '--count', '1', '--db', file, '--quiet']);
    expect(played.code, played.stderr).toBe(0);
    expect(played.stderr).toMatch(/warning: results recorded here are not sealed.*holds matches but no record of its key, though its key and .*\.key\.head are here/);
    await failsWith(file, /^database: the database has no record of its key, but .*copy-\d+\.db\.key holds one/m);
  });

  it('forgery - a database deleted and made again beside its old key and marker is keyed, sealed and holds', async () => {
    const file = join(dir, 'remade.db');
    copyFileSync(`${pristine}.key`, `${file}.key`);
    copyFileSync(`${pristine}.key.head`, `${file}.key.head`);
    expect((await arena(['match', 'reference-bfs', '--size', '2', '--count', '1', '--db', file, '--quiet'])).code).toBe(0);
    const r = await arena(['audit', '--db', file]);
    expect(r.code, r.stdout).toBe(0);
    const db = new Database(file, { readonly: true });
    const { db_id: dbId } = db.prepare('SELECT db_id FROM seal_meta').get() as { db_id: string };
    db.close();
    expect(readFileSync(`${file}.key.head`, 'utf8').trim()).toBe(dbId);
  });

  it('forgery - the key check removed while the key sits beside the database, or removed with every seal: fails', async () => {
    await failsWith(tampered(`UPDATE seal_meta SET key_check = NULL`), /^database: the database has no record of its key, but .*copy-\d+\.db\.key holds one: the record \(seal_meta\.key_check\) was removed$/m);
    const bare = tampered(`UPDATE seal_meta SET key_check = NULL, after_match = NULL, after_result = NULL, head_seal = NULL, matches_seal = NULL, sealed_matches = 0,
      pre_matches = NULL, pre_results = NULL, pre_optima = NULL, pre_versions = NULL, pre_games = NULL`, { key: false });
    await failsWith(bare, /^database: the database has no record of its key, yet \d+ of its results and matches carry seals: the record \(seal_meta\.key_check\) was removed$/m);
  });

  it('forgery - an optimum planted in the cache (before the next match reads it) or changed in place: fails', async () => {
    const changed = tampered(`UPDATE optima SET optimal = optimal - 6 WHERE state_key = (SELECT min(state_key) FROM optima)`);
    await failsWith(changed, /^database: the cached optimum \d+ of state \{.*\} does not match its seal: it was changed$/m);
    // The attack of the issue: a row planted for a scramble the next match will play, which the referee
    // (holding the key) then takes as proved and seals into the scramble's bound.
    const scramble = await arena(['scramble', 'sliding', '--size', '4', '--count', '1', '--seed', 'plant', '--walk', '40', '--json']);
    const state = JSON.parse(scramble.stdout.trim()) as PuzzleState;
    // As low as the referee will take from its cache: the puzzle's own lower bound.
    const low = puzzleOf(state).bound(state).lowerBound;
    const planted = tampered(`INSERT INTO optima (state_key, optimal, created_at) VALUES ('${stateKey(state)}', ${low}, '2026-01-01T00:00:00Z')`);
    const played = await arena(['match', 'ida-star', '--size', '4', '--count', '1', '--walk', '40', '--seed', 'plant', '--db', planted, '--json']);
    expect(played.code, played.stderr).toBe(0);
    // The report believes it: the scramble's optimum is the planted one, below ida-star's optimal answer.
    const report = JSON.parse(played.stdout) as { scrambles: { optimal?: number }[]; results: { moves: number }[] };
    expect(report.scrambles[0]!.optimal).toBe(low);
    expect(report.results[0]!.moves).toBeGreaterThan(low);
    await failsWith(planted, new RegExp(`^database: 1 cached optima have no seal, but only 0 predate the database's key: 1 were written without the key .*: ${low} for \\{`, 'm'));
  });

  it('forgery - an optimum planted, taken by the referee, then deleted from the cache: the sealed bound the cache does not explain fails', async () => {
    const scramble = await arena(['scramble', 'sliding', '--size', '4', '--count', '1', '--seed', 'plant', '--walk', '40', '--json']);
    const state = JSON.parse(scramble.stdout.trim()) as PuzzleState;
    const low = puzzleOf(state).bound(state).lowerBound;
    const file = tampered(`INSERT INTO optima (state_key, optimal, created_at) VALUES ('${stateKey(state)}', ${low}, '2026-01-01T00:00:00Z')`);
    expect((await arena(['match', 'ida-star', '--size', '4', '--count', '1', '--walk', '40', '--seed', 'plant', '--db', file, '--quiet'])).code).toBe(0);
    const db = new Database(file);
    db.exec(`DELETE FROM optima WHERE seal IS NULL`);
    db.close();
    await failsWith(file, new RegExp(`^match 3, scramble 1: its recorded optimum ${low} is not in the database's optima cache`, 'm'));
    // Without the key, --deep proves it again.
    const r = await arena(['audit', '--db', file, '--no-key', '--deep']);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^database: match 3, scramble 1: its optimum is ${low}, but the exact oracle proves \\d+$`, 'm'));
  });

  it('forgery - --deep proves every cached optimum again, without the key', async () => {
    const file = tampered(`UPDATE optima SET optimal = optimal + 2 WHERE state_key = (SELECT min(state_key) FROM optima)`, { key: false });
    const r = await arena(['audit', '--db', file, '--no-key', '--deep']);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^database: the cached optimum of \{.*\} is \d+, but the exact oracle proves \d+$/m);
    expect((await arena(['audit', '--db', pristine, '--deep'])).code).toBe(0);
  });

  it('forgery - version ids swapped in a ladder game, or a game inserted: fails', async () => {
    await failsWith(tampered(`UPDATE ladder_games SET entries = '[{"bot":"ida-star","versionId":2},{"bot":"reference-bfs","versionId":1}]'`),
      /^database: ladder game 1 does not match its seal: which version played/m);
    await failsWith(tampered(`DELETE FROM ladder_games`), /^database: sealed ladder game number 1 of 1 is missing: deleted, which changes the ladder's ranking$/m);
    await failsWith(tampered(`DELETE FROM ladder_games; UPDATE seal_meta SET sealed_games = 0`), /^database: the database's count of sealed ladder games \(0\) does not match its seal/m);
    await failsWith(tampered(`UPDATE bot_versions SET hash = '${'c'.repeat(64)}' WHERE id = 1`), /^database: ladder version 1 \(ida-star #1\) does not match its seal/m);
    await failsWith(tampered(`INSERT INTO ladder_games (seed, puzzle_class, purpose, entries, why, match_id, created_at) VALUES ('x', 'sliding 3x3', 'upkeep', '[]', 'forged', 2, '2026-01-01')`),
      /^database: 1 ladder games have no seal, but only 0 predate the database's key/m);
  });

  it('forgery - a never-played match injected, above the watermark or below it (id 0): fails', async () => {
    const inject = (id: number) => `
      INSERT INTO matches (id, config, seed, generator_version, bots, status, created_at, updated_at)
        SELECT ${id}, config, seed, generator_version, bots, status, created_at, updated_at FROM matches WHERE id = 1;
      INSERT INTO scrambles (match_id, idx, state, puzzle_class, optimal, lower_bound, bound_note)
        SELECT ${id}, idx, state, puzzle_class, optimal, lower_bound, bound_note FROM scrambles WHERE match_id = 1;
      INSERT INTO results (scramble_id, bot, verdict, move_count, moves_kind, moves, wall_ms, created_at)
        SELECT s2.id, r.bot, r.verdict, r.move_count, r.moves_kind, r.moves, r.wall_ms, r.created_at
        FROM results r JOIN scrambles s ON s.id = r.scramble_id JOIN scrambles s2 ON s2.match_id = ${id} AND s2.idx = s.idx WHERE s.match_id = 1;`;
    await failsWith(tampered(inject(50)), /^match 50: the match has no seal, though it was created after the database got its key/m);
    await failsWith(tampered(inject(0)), /^database: 1 matches have no seal, but only 0 predate the database's key/m, /^database: 6 results have no seal, but only 0 predate/m);
  });

  it('forgery - a copy without its key is incomplete (exit 2), --no-key runs the replay checks alone (exit 0)', async () => {
    const copy = tampered('SELECT 1', { key: false });
    const r = await arena(['audit', '--db', copy]);
    expect(r.code, r.stdout).toBe(2);
    expect(r.stdout).toMatch(new RegExp(`^incomplete: 8 results unchecked, key not found at ${copy.replaceAll('.', '\\.')}\\.key; pass --key FILE`, 'm'));
    expect(r.stdout).not.toMatch(/holds/);
    const moved = tampered('SELECT 1');
    renameSync(`${moved}.key`, join(dir, 'elsewhere.key'));
    expect((await arena(['audit', '--db', moved])).code).toBe(2);
    expect((await arena(['audit', '--db', moved, '--key', join(dir, 'elsewhere.key')])).code).toBe(0);
    const replayOnly = await arena(['audit', '--db', copy, '--no-key']);
    expect(replayOnly.code, replayOnly.stdout).toBe(0);
    expect(replayOnly.stdout).toMatch(/^seals not checked \(--no-key\): the replay checks alone/m);
    expect(replayOnly.stdout).toMatch(/^audit: everything checked holds \(2 match\(es\)\)$/m);
  });

  it('forgery - a verdict its own time and limit contradict is flagged without the key', async () => {
    const file = tampered(`UPDATE results SET wall_ms = 45000 WHERE id = (SELECT min(id) FROM results WHERE verdict = 'solved');
      UPDATE results SET verdict = 'timeout', error = 'no final answer' WHERE id = (SELECT max(r.id) FROM results r JOIN scrambles s ON s.id = r.scramble_id WHERE s.match_id = 1)`, { key: false });
    const r = await arena(['audit', '--db', file, '--no-key']);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^match 1, scramble 1, bot [a-z-]+: solved in 45000 ms, above the match's time limit of 10000 ms/m);
    expect(r.stdout).toMatch(/^match 1, scramble 3, bot [a-z-]+: a timeout after \d+ ms, below the match's time limit of 10000 ms/m);
  });
});
