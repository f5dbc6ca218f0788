/**
 * The idle ladder wakes on a registration: `arena ladder` polling its field only once an hour notices a
 * bot added by `arena bot add` (another process writing the same SQLite file) at once, checks it and
 * places it. Before the wake, the registration waited for the next poll. `arena ladder status` then shows
 * the pace in games per minute.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnArena } from './helpers.ts';
import { addAstar, astarFolder, LADDER_FLAGS, placedWithInterval, reader, startLadder, waitView } from './ladder-helpers.ts';

describe('ladder e2e - wake', () => {
  const children: ReturnType<typeof spawnArena>[] = [];
  afterAll(() => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  });

  it('ladder wake - a bot registered while the ladder idles with an hour-long poll is checked and placed', { timeout: 600_000 }, async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'arena-ladder-wake-')), 'ladder.db');
    const flags = [...LADDER_FLAGS];
    flags[flags.indexOf('--poll') + 1] = '1h';
    const ladder = startLadder(db, flags, children);
    const ctx = await reader(db);
    try {
      await waitView(ctx, (v) => ['constructive', 'ida-star', 'dijkstra'].every((b) => placedWithInterval(v, b, 1)) && v.activity?.doing === 'waiting', 300_000, ladder.log);
      const added = await spawnArena([...addAstar(astarFolder()), '--db', db], {}).done;
      expect(added.code, added.stderr).toBe(0);
      // Only a wake can get here: the next poll is an hour away.
      await waitView(ctx, (v) => placedWithInterval(v, 'astar', 1), 300_000, ladder.log);
      expect(ladder.log()).toMatch(/checking astar v1/);
      // `arena ladder status` says how fast it plays.
      const status = await spawnArena(['ladder', 'status', '--db', db], {}).done;
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(/^ {2}pace: \d+(\.\d)? games per minute \(\d+ games in the last \d+(\.\d)? min\)$/m);
      ladder.child.kill('SIGINT');
      expect((await ladder.done).code).toBe(0);
    } finally {
      await ctx.close();
    }
  });
});
