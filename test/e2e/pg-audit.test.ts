/**
 * `arena audit` on a real PostgreSQL server the test starts, through the real CLI: a local match, and a
 * distributed one whose results a worker writes straight into the database. Keys live in a key folder of
 * the test's own (ARENA_KEY_DIR), as they would in ~/.config/puzzle-arena/keys.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openContext } from '../../src/app/context.ts';
import { RECORDS } from '../../src/app/seal-keys.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';
import { spawnArena } from './helpers.ts';

describe.skipIf(skipPgTests())('arena audit (PostgreSQL, real CLI)', () => {
  let server: PgServer;
  const children: ChildProcess[] = [];
  const keys = mkdtempSync(join(tmpdir(), 'arena-keys-'));
  const env = { ARENA_KEY_DIR: keys };

  beforeAll(async () => {
    server = await startPgServer();
  });
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });
  afterAll(async () => {
    await server?.destroy();
  });

  function arena(args: string[], extra: Record<string, string> = env) {
    const run = spawnArena(args, extra);
    children.push(run.child);
    return run;
  }

  async function sql(url: string, text: string): Promise<void> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  }

  it('pg audit - an untouched database holds; a verdict changed or a row deleted is named; without the key it says so', { timeout: 180_000 }, async () => {
    const url = await server.createDatabase('audit');
    const played = await arena(['match', 'reference-bfs', 'hanoi-iterative', '--size', '3', '--count', '3', '--seed', 'pg', '--db', url, '--quiet']).done;
    expect(played.code, played.stderr).toBe(0);
    expect(played.stderr).toMatch(/made the database's audit key .*\.key: keep it private, and copy it/);
    expect(readdirSync(keys).filter((f) => f.endsWith('.key'))).toHaveLength(1);

    const clean = await arena(['audit', '--db', url]).done;
    expect(clean.code, clean.stdout).toBe(0);
    expect(clean.stdout).toMatch(/^match 1 \(finished\): 3 scrambles regenerated from its seed, 6 results replayed/m);
    expect(clean.stdout).toMatch(/^integrity: every seal checked with the key in /m);

    const solved = `(SELECT r.id FROM arena.results r JOIN arena.scrambles s ON s.id = r.scramble_id WHERE s.idx = 1 AND r.bot = 'reference-bfs')`;
    await sql(url, `UPDATE arena.results SET verdict = 'timeout', error = 'no final answer' WHERE id = ${solved}`);
    const edited = await arena(['audit', '--db', url]).done;
    expect(edited.code).toBe(1);
    expect(edited.stdout).toMatch(/^match 1, scramble 2, bot reference-bfs: the row does not match its seal/m);

    await sql(url, `DELETE FROM arena.results WHERE id = ${solved}`);
    const deleted = await arena(['audit', '1', '--db', url, '--json']).done;
    expect(deleted.code).toBe(1);
    const report = JSON.parse(deleted.stdout) as { ok: boolean; problems: Array<{ match: number; scramble?: number; bot?: string; what: string }> };
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual({ match: 1, scramble: 2, bot: 'reference-bfs', what: 'no result, though the match is finished: a row was deleted' });
    expect(report.problems.some((p) => /^sealed result number \d of 6 is missing/.test(p.what))).toBe(true);

    // Another machine without the key: the replay checks still run, and it says plainly what it cannot check.
    const elsewhere = await arena(['audit', '--db', url], { ARENA_KEY_DIR: mkdtempSync(join(tmpdir(), 'arena-nokeys-')) }).done;
    expect(elsewhere.stdout).toMatch(/^no key: integrity of times\/verdicts not checked/m);
    expect(elsewhere.stdout).toMatch(/^match 1, scramble 2, bot reference-bfs: no result, though the match is finished/m);
  });

  it('pg audit - a worker with the key seals what it writes; a worker without it is warned, and its results are named unsealed', { timeout: 240_000 }, async () => {
    const url = await server.createDatabase('auditworkers');
    const distributed = async (worker: Record<string, string>, seed: string) => {
      const match = arena(['match', 'reference-bfs', '--size', '2', '--count', '3', '--seed', seed, '--db', url, '--distributed']);
      const w = arena(['worker', '--db', url, '--name', 'w', '--heartbeat', '1s'], worker);
      const out = await match.done;
      expect(out.code, out.stderr).toBe(0);
      w.child.kill('SIGINT');
      return w.done;
    };
    const sealedWorker = await distributed(env, 'one');
    expect(sealedWorker.stderr).not.toMatch(/not sealed/);
    const first = await arena(['audit', '--db', url]).done;
    expect(first.code, first.stdout).toBe(0);

    const keyless = await distributed({ ARENA_KEY_DIR: mkdtempSync(join(tmpdir(), 'arena-nokeys-')) }, 'two');
    expect(keyless.stderr).toMatch(/warning: results recorded here are not sealed, so arena audit cannot check their times and verdicts: no key file/);
    const second = await arena(['audit', '2', '--db', url]).done;
    expect(second.code).toBe(1);
    expect(second.stdout).toMatch(/^match 2, scramble 1, bot reference-bfs: the result has no seal, though it was recorded after the database got its key/m);
  });

  it('pg audit - the forgeries of issue 29 fail (watermark, seals, key check, optimum, ladder, injected match); undone, the database holds; no key → exit 2', { timeout: 240_000 }, async () => {
    const url = await server.createDatabase('forgeries');
    for (const args of [['ida-star', 'reference-bfs', '--size', '3', '--count', '2', '--seed', 'f'], ['ida-star', '--size', '4', '--count', '1', '--walk', '40', '--seed', 'o']]) {
      const played = await arena(['match', ...args, '--db', url, '--quiet']).done;
      expect(played.code, played.stderr).toBe(0);
    }
    const opened = await openContext({ db: url, ...RECORDS, env });
    if (!opened.ok) throw new Error(opened.reason);
    const ladder = opened.value.store.ladder();
    const a = await ladder.saveVersion({ bot: 'ida-star', hash: 'a'.repeat(64), command: 'ida-star' });
    const b = await ladder.saveVersion({ bot: 'reference-bfs', hash: 'b'.repeat(64), command: 'reference-bfs' });
    const game = await ladder.addGame({ seed: 'f', puzzleClass: 'sliding 3x3', purpose: 'upkeep', entries: [{ bot: 'ida-star', versionId: a.id }, { bot: 'reference-bfs', versionId: b.id }], why: 'test' });
    await ladder.setGameMatch(game.id, 1);
    await opened.value.close();

    const audit = async (code: number, ...lines: RegExp[]) => {
      const r = await arena(['audit', '--db', url]).done;
      expect(r.code, r.stdout).toBe(code);
      for (const l of lines) expect(r.stdout).toMatch(l);
    };
    await audit(0, /^audit: everything checked holds \(2 match\(es\)\)$/m);
    /** Runs `forge`, expects the audit to fail naming `line`, then runs `undo`. */
    const forged = async (forge: string, undo: string, line: RegExp) => {
      await sql(url, forge);
      await audit(1, line);
      await sql(url, undo);
    };
    await forged(
      `UPDATE arena.seal_meta SET after_match = 100, after_result = 1000; UPDATE arena.matches SET seal = NULL WHERE id = 1`,
      `UPDATE arena.seal_meta SET after_match = 0, after_result = 0; UPDATE arena.matches SET seal = '${await one(url, 'SELECT seal FROM arena.matches WHERE id = 1')}' WHERE id = 1`,
      /^database: the database's watermark \(which rows predate its key\) or its count of older rows changed after they were sealed$/m,
    );
    const check = await one(url, 'SELECT key_check FROM arena.seal_meta');
    await forged(`UPDATE arena.seal_meta SET key_check = NULL`, `UPDATE arena.seal_meta SET key_check = '${check}'`, /^database: the database has no record of its key, but .*\.key holds one/m);
    await forged(
      `INSERT INTO arena.optima (state_key, optimal) VALUES ('{"cols":4,"kind":"sliding","rows":4,"tiles":[1,2,3,4,5,6,7,8,9,10,11,12,13,15,14,0]}', 3)`,
      `DELETE FROM arena.optima WHERE seal IS NULL`,
      /^database: 1 cached optima have no seal, but only 0 predate the database's key/m,
    );
    await forged(`UPDATE arena.optima SET optimal = optimal - 4`, `UPDATE arena.optima SET optimal = optimal + 4`, /^database: the cached optimum \d+ of state .* does not match its seal/m);
    const entries = await one(url, 'SELECT entries FROM arena.ladder_games');
    await forged(
      `UPDATE arena.ladder_games SET entries = '[{"bot":"ida-star","versionId":${b.id}},{"bot":"reference-bfs","versionId":${a.id}}]'`,
      `UPDATE arena.ladder_games SET entries = '${entries}'`,
      /^database: ladder game \d+ does not match its seal: which version played/m,
    );
    await forged(
      `CREATE TABLE arena.kept AS SELECT * FROM arena.ladder_games; DELETE FROM arena.ladder_games`,
      `INSERT INTO arena.ladder_games OVERRIDING SYSTEM VALUE SELECT * FROM arena.kept; DROP TABLE arena.kept`,
      /^database: sealed ladder game number 1 of 1 is missing: deleted, which changes the ladder's ranking$/m,
    );
    await forged(
      `INSERT INTO arena.matches (id, config, seed, generator_version, bots, status, created_at, updated_at)
         OVERRIDING SYSTEM VALUE SELECT 0, config, seed, generator_version, bots, status, created_at, updated_at FROM arena.matches WHERE id = 1`,
      `DELETE FROM arena.matches WHERE id = 0`,
      /^database: 1 matches have no seal, but only 0 predate the database's key/m,
    );
    await audit(0, /^audit: everything checked holds \(2 match\(es\)\)$/m);

    const elsewhere = await arena(['audit', '--db', url], { ARENA_KEY_DIR: mkdtempSync(join(tmpdir(), 'arena-nokeys-')) }).done;
    expect(elsewhere.code, elsewhere.stdout).toBe(2);
    expect(elsewhere.stdout).toMatch(/^incomplete: 5 results unchecked, key not found at .*\.key; pass --key FILE/m);
    const replayOnly = await arena(['audit', '--db', url, '--no-key'], { ARENA_KEY_DIR: mkdtempSync(join(tmpdir(), 'arena-nokeys-')) }).done;
    expect(replayOnly.code, replayOnly.stdout).toBe(0);
  });

  it('pg audit - a database sealed before the head (schema v10) gets its head from the first open with its key, and holds', { timeout: 180_000 }, async () => {
    const url = await server.createDatabase('legacy');
    const played = await arena(['match', 'reference-bfs', '--size', '3', '--count', '2', '--seed', 'old', '--db', url, '--quiet']).done;
    expect(played.code, played.stderr).toBe(0);
    const dbId = await one(url, 'SELECT db_id FROM arena.seal_meta');
    // As an older arena left it: no head, no optima or ladder seals, schema v10, no head marker beside the key.
    await sql(url, `ALTER TABLE arena.seal_meta DROP COLUMN head_seal, DROP COLUMN pre_matches, DROP COLUMN pre_results, DROP COLUMN pre_optima,
        DROP COLUMN pre_versions, DROP COLUMN pre_games, DROP COLUMN sealed_games, DROP COLUMN games_seal;
      ALTER TABLE arena.optima DROP COLUMN seal; ALTER TABLE arena.bot_versions DROP COLUMN seal; ALTER TABLE arena.ladder_games DROP COLUMN seal, DROP COLUMN seq;
      ALTER TABLE arena.bots DROP COLUMN snapshot, DROP COLUMN runtime; DROP TABLE arena.sessions; DROP TABLE arena.participants;
      ALTER TABLE arena.bots DROP COLUMN owner, DROP COLUMN source; DROP TABLE arena.submissions; DROP TABLE arena.version_blocks; DROP TABLE arena.versions; DROP TABLE arena.bot_stderr;
      UPDATE arena.schema_version SET version = 10`);
    rmSync(join(keys, `${dbId}.key.head`));
    const r = await arena(['audit', '--db', url]).done;
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^audit: everything checked holds \(1 match\(es\)\)$/m);
    expect(await one(url, 'SELECT head_seal IS NOT NULL FROM arena.seal_meta')).toBe('true');
    expect(existsSync(join(keys, `${dbId}.key.head`))).toBe(true);
  });

  async function one(url: string, text: string): Promise<string> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return String(Object.values((await c.query(text)).rows[0] as object)[0]);
    } finally {
      await c.end();
    }
  }
});
