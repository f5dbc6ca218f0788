import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import type { ResultRow } from '../../src/store/types.ts';
import { tsxLoaderPath } from '../../src/transport/process/builtin-bots.ts';
import { ROOT, spawnArena, waitFor } from './helpers.ts';

/** A fresh database with the fixture bots `instant` and `silent` registered through the real CLI. */
async function freshDb(): Promise<string> {
  const db = join(mkdtempSync(join(tmpdir(), 'arena-resume-')), 'arena.db');
  const loader = pathToFileURL(tsxLoaderPath(ROOT)!).href;
  for (const bot of ['instant', 'silent']) {
    const cmd = `"${process.execPath}" --import ${loader} "${join(ROOT, 'test/fixtures/bots', `${bot}.ts`)}"`;
    const r = await spawnArena(['bot', 'add', bot, '--cmd', cmd, '--db', db], {}).done;
    expect(r.code, r.stderr).toBe(0);
  }
  return db;
}

async function countResults(db: string): Promise<ResultRow[]> {
  const s = openSqliteStore(db);
  try {
    const [m] = await s.listMatches(1);
    return m ? await s.listResults(m.id) : [];
  } finally {
    await s.close();
  }
}

async function lastMatch(db: string) {
  const s = openSqliteStore(db);
  try {
    return (await s.listMatches(1))[0];
  } finally {
    await s.close();
  }
}

const MATCH = ['match', 'instant', 'silent', '--puzzle', 'sliding', '--size', '2', '--count', '5', '--seed', '11', '--time-limit', '700ms', '--json'];

describe('referee e2e - kill and resume', () => {
  it('a referee killed with SIGKILL loses nothing and repeats nothing when resumed', async () => {
    const db = await freshDb();
    const first = spawnArena([...MATCH, '--db', db], {});
    // The silent bot times out on every scramble, so the match takes seconds: kill it midway.
    expect(await waitFor(async () => (await countResults(db)).length >= 3, 60_000)).toBe(true);
    first.child.kill('SIGKILL');
    await first.done;
    const before = await countResults(db);
    expect(before.length).toBeGreaterThanOrEqual(3);
    expect(before.length).toBeLessThan(10);

    const match = await lastMatch(db);
    const resumed = await spawnArena(['match', '--resume', String(match.id), '--db', db, '--json'], {}).done;
    expect(resumed.code, resumed.stderr).toBe(0);
    const report = JSON.parse(resumed.stdout);
    expect(report.match.status).toBe('finished');
    expect(report.results).toHaveLength(10);

    const after = await countResults(db);
    expect(after).toHaveLength(10);
    const keys = after.map((r) => `${r.scrambleIndex}/${r.bot}`);
    expect(new Set(keys).size).toBe(10);
    // What was recorded before the kill is untouched.
    for (const r of before) expect(after.find((x) => x.scrambleId === r.scrambleId && x.bot === r.bot)).toEqual(r);
    for (const r of after) expect(r.verdict).toBe(r.bot === 'instant' ? 'solved' : 'timeout');
  });

  it('Ctrl-C stops cleanly: the match is marked interrupted, exit 130, and it can be resumed', async () => {
    const db = await freshDb();
    const run = spawnArena([...MATCH, '--db', db], {});
    expect(await waitFor(async () => (await countResults(db)).length >= 2, 60_000)).toBe(true);
    run.child.kill('SIGINT');
    const r = await run.done;
    expect(r.code).toBe(130);
    const match = await lastMatch(db);
    expect(match.status).toBe('interrupted');
    const resumed = await spawnArena(['match', '--resume', String(match.id), '--db', db, '--json'], {}).done;
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await countResults(db)).toHaveLength(10);
  });
});
