/**
 * One decider, end to end with real parts: the SPRT match of issue 30 (ida-star against constructive on 4×4
 * boards) decides early, and still every scramble it played gets its exact optimum proved and stored, by
 * `arena match` on a SQLite file and by two `arena worker` processes on a real PostgreSQL, with the same
 * decision after the same counted scrambles. ida-star's answers are optimal (its own search, in its own
 * process), so every stored optimum must also equal its answer: an independent check of each proof.
 */
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPgStore } from '../../src/store/pg/pg-store.ts';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { Store } from '../../src/store/types.ts';
import { skipPgTests, startPgServer, type PgServer } from '../helpers/pg-server.ts';
import { arenaRuns, waitFor } from './helpers.ts';

/** The match of the issue: it decides H1 after 53 of its 80 scrambles. */
const SPRT_MATCH = ['ida-star', 'constructive', '--puzzle', 'sliding', '--size', '4', '--count', '80', '--seed', '11', '--time-limit', '30s', '--sprt', 'elo0=0,elo1=20', '--json'];
const FAST = ['--heartbeat', '1s', '--dead-after', '6s'];

interface Report {
  match: { id: number; status: string; played: number };
  summary: { sprt: { decision: string | null; scrambles: number; wdl: unknown } };
  scrambles: Array<{ scramble: number; optimal?: number; boundNote?: string }>;
  results: Array<{ scramble: number; bot: string; verdict: string; moves: number }>;
}

/**
 * What the store holds of every ida-star answer: its scramble's stored optimum (null when unproved) and its
 * length, and how many scrambles were played; the store is closed after.
 */
async function storedProofs(store: Store, matchId: number) {
  try {
    const scrambles = new Map((await store.listScrambles(matchId)).map((s) => [s.id, s]));
    const rows = await store.listSummaries(matchId);
    const answers = rows.filter((r) => r.bot === 'ida-star').map((r) => ({ verdict: r.verdict, moves: r.moveCount, optimal: scrambles.get(r.scrambleId)?.bound.optimal ?? null, note: scrambles.get(r.scrambleId)?.boundNote }));
    return { answers, played: new Set(rows.map((r) => r.scrambleId)).size };
  } finally {
    await store.close();
  }
}

/** Every ida-star answer solved, and its scramble's stored optimum equal to its length (ida-star is optimal). */
function expectProven(answers: Awaited<ReturnType<typeof storedProofs>>['answers']): void {
  for (const a of answers) {
    expect(a.verdict).toBe('solved');
    expect(a.optimal, JSON.stringify(a)).toBe(a.moves);
  }
}

describe('decider - an SPRT match still proves the optimum of every scramble it played', () => {
  let server: PgServer | undefined;
  let local: Report | undefined;
  const { arena, tempDir } = arenaRuns();

  beforeAll(async () => {
    if (!skipPgTests()) server = await startPgServer();
  });
  afterAll(async () => {
    await server?.destroy();
  });

  it('decider - locally (arena match, SQLite): decided H1 after 53 scrambles, and every ida-star answer of them has its proven optimum stored', { timeout: 180_000 }, async () => {
    const file = join(tempDir('arena-decider-'), 'local.db');
    const out = await arena(['match', ...SPRT_MATCH, '--db', file]).done;
    expect(out.code, out.stderr).toBe(0);
    local = JSON.parse(out.stdout) as Report;
    expect(local.match.status).toBe('finished');
    expect(local.summary.sprt).toMatchObject({ decision: 'H1', scrambles: 53 });
    // The report has them, with no note of a search stopped or pending.
    expect(local.scrambles).toHaveLength(local.match.played);
    expect(local.scrambles.every((s) => typeof s.optimal === 'number' && s.boundNote === undefined)).toBe(true);
    const { answers, played } = await storedProofs(openSqliteStore(file), local.match.id);
    expect(played).toBe(local.match.played);
    expect(answers).toHaveLength(played);
    expectProven(answers);
  });

  it.skipIf(skipPgTests())('decider - on two workers (PostgreSQL): the same decision, and every played ida-star answer has its proven optimum stored', { timeout: 300_000 }, async () => {
    const url = await server!.createDatabase('decider');
    await (await openPgStore(url)).close();
    const match = arena(['match', ...SPRT_MATCH, '--batch', '4', '--db', url, '--distributed']);
    for (const name of ['d1', 'd2']) arena(['worker', '--db', url, '--name', name, ...FAST]);
    const out = await match.done;
    expect(out.code, out.stderr).toBe(0);
    const d = JSON.parse(out.stdout) as Report;
    // Finished once the proofs are in: the watcher's report has every optimum.
    expect(d.match.status).toBe('finished');
    expect(local, 'the local match runs first').toBeDefined();
    expect(d.summary.sprt).toEqual(local!.summary.sprt);
    expect(d.summary.sprt).toMatchObject({ decision: 'H1', scrambles: 53 });
    expect(d.scrambles.every((s) => typeof s.optimal === 'number' && s.boundNote === undefined)).toBe(true);
    const { answers, played } = await storedProofs(await openPgStore(url), d.match.id);
    // Plays in flight when the test decided are kept (and proved too): at least the 53 counted.
    expect(played).toBeGreaterThanOrEqual(53);
    expect(answers.length).toBeGreaterThanOrEqual(53);
    expectProven(answers);
  });

  it.skipIf(skipPgTests())('decider - a local match killed while it proves the optima of its decision resumes on a worker (--resume --distributed), which proves only what is owed', { timeout: 300_000 }, async () => {
    const url = await server!.createDatabase('owed');
    await (await openPgStore(url)).close();
    const sql = new pg.Pool({ connectionString: url, max: 2 });
    sql.on('error', () => undefined);
    try {
      const run = arena(['match', ...SPRT_MATCH, '--db', url]);
      // 106 results: the test has decided (53 scrambles × 2 bots); the proofs of the 53 take seconds more.
      const count = async () => (await sql.query(`SELECT count(*)::int AS n FROM arena.results`).catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n as number;
      expect(await waitFor(async () => (await count()) >= 106, 180_000)).toBe(true);
      run.child.kill('SIGKILL');
      await run.done;
      const before = (await sql.query(`SELECT status FROM arena.matches WHERE id = 1`)).rows[0].status as string;
      expect(before, 'killed before its proofs were done').toBe('running');
      const resumed = arena(['match', '--resume', '1', '--db', url, '--distributed', '--json']);
      arena(['worker', '--db', url, '--name', 'r1', ...FAST]);
      const out = await resumed.done;
      expect(out.code, out.stderr).toBe(0);
      const d = JSON.parse(out.stdout) as Report;
      expect(d.match.status).toBe('finished');
      expect(d.summary.sprt).toMatchObject({ decision: 'H1', scrambles: 53 });
      const { answers, played } = await storedProofs(await openPgStore(url), 1);
      // Nothing was played after the kill: the resume only proved.
      expect(played).toBe(53);
      expect(await count()).toBe(106);
      expectProven(answers);
    } finally {
      await sql.end();
    }
  });
});
