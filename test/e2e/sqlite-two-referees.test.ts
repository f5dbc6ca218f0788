import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.ts';
import { spawnArena } from './helpers.ts';

const COUNT = 150;

describe('two referees on one SQLite file', () => {
  it('sqlite store - two real arena match processes both finish and every result is stored exactly once', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'arena-two-referees-')), 'shared.db');
    // Fast bots and many scrambles: the two processes commit results interleaved for the whole run, so each
    // waits for the other's write lock many times (before the fix both stopped with "database is locked").
    const run = (seed: string) =>
      spawnArena(['match', 'constructive', 'hybrid', '--puzzle', 'sliding', '--size', '3', '--count', String(COUNT), '--seed', seed, '--no-warm-up', '--no-sandbox', '--db', db], {}).done;
    const [a, b] = await Promise.all([run('101'), run('202')]);
    expect(a.code, a.stdout + a.stderr).toBe(0);
    expect(b.code, b.stdout + b.stderr).toBe(0);
    expect(a.stdout + b.stdout).not.toMatch(/locked|interrupted/);

    const store = openSqliteStore(db);
    try {
      const matches = await store.listMatches();
      expect(matches.map((m) => m.status)).toEqual(['finished', 'finished']);
      for (const m of matches) {
        const results = await store.listResults(m.id);
        const pairs = new Set(results.map((r) => `${r.scrambleId}/${r.bot}`));
        expect(results).toHaveLength(2 * COUNT);
        expect(pairs.size).toBe(2 * COUNT);
        expect(new Set(results.map((r) => r.verdict))).toEqual(new Set(['solved']));
      }
    } finally {
      await store.close();
    }
  }, 240_000);
});
