/**
 * `arena audit` on a real PostgreSQL server the test starts, through the real CLI: a local match, and a
 * distributed one whose results a worker writes straight into the database. Keys live in a key folder of
 * the test's own (ARENA_KEY_DIR), as they would in ~/.config/puzzle-arena/keys.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
    expect(elsewhere.stdout).toMatch(/^no key: integrity of times\/verdicts not checkable/m);
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
});
