/**
 * The standing ladder end to end, on a real SQLite file with real processes: `arena ladder` on 3×3 with
 * three built-in bots; a command bot in a temp folder registered while it runs is checked and placed with a
 * rating interval without any `arena match`; its changed file is a second version, placed again while the
 * first keeps its results; Ctrl-C stops the ladder mid-game and a restart resumes that very match. Every
 * ladder game is a normal match that `arena show` and `arena audit` read.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { botVersions } from '../../src/app/ladder/ladder-status.ts';
import { spawnArena, waitFor } from './helpers.ts';
import { addAstar, astarFolder, changeBot, LADDER_FLAGS, placedWithInterval, reader, waitView, startLadder } from './ladder-helpers.ts';

describe('ladder e2e - sqlite', () => {
  const children: ReturnType<typeof spawnArena>[] = [];
  afterAll(() => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  });

  it('ladder - places a registered bot, then its changed version, and a restart resumes the game Ctrl-C stopped', { timeout: 900_000 }, async () => {
    // The database is outside the bot's folder: the sandbox refuses a bot whose folder holds it.
    const db = join(mkdtempSync(join(tmpdir(), 'arena-ladder-db-')), 'ladder.db');
    const folder = astarFolder();
    const start = () => startLadder(db, LADDER_FLAGS, children);
    const first = start();
    const ctx = await reader(db);
    try {
      await waitView(ctx, (v) => ['constructive', 'ida-star', 'dijkstra'].every((b) => placedWithInterval(v, b, 1)), 300_000, first.log);

      const t0 = Date.now();
      const added = await spawnArena([...addAstar(folder), '--db', db], {}).done;
      expect(added.code, added.stderr).toBe(0);
      const placed = await waitView(ctx, (v) => placedWithInterval(v, 'astar', 1), 300_000, first.log);
      const placeMs = Date.now() - t0;
      const astar1 = placed.versions.find((x) => x.bot === 'astar')!;
      expect(astar1.classes).toEqual(['sliding 3x3']);
      expect(first.log()).toMatch(/checking astar v1 \(bot check, confined\)/);
      expect(first.log()).toMatch(/astar v1 is placed \(sliding 3x3: -?\d+ \[-?\d+, -?\d+\] after \d+ games\)/);
      console.log(`placing astar v1 on 3x3 took ${(placeMs / 1000).toFixed(1)} s from registration`);

      changeBot(folder, 'second version');
      const second = await waitView(ctx, (v) => placedWithInterval(v, 'astar', 2), 300_000, first.log);
      // The leaderboard shows the current version; the first keeps its results and rating.
      expect(second.classes[0]!.ranking.map((r) => r.bot).sort()).toEqual(['astar', 'constructive', 'dijkstra', 'ida-star']);
      expect(second.classes[0]!.ranking.find((r) => r.bot === 'astar')!.label).toBe('astar v2');
      const history = await botVersions(ctx, 'astar');
      expect(history.map((h) => [h.number, h.current, h.status])).toEqual([[2, true, 'placed'], [1, false, 'placed']]);
      expect(history[1]!.ratings[0]!.games).toBeGreaterThan(0);

      // A third version: stop the ladder while its placement game is being played.
      changeBot(folder, 'third version');
      let playing: number | undefined;
      const midGame = await waitFor(async () => {
        const v = await ctx.store.ladder().listVersions('astar');
        const third = v.find((x) => x.number === 3);
        const game = (await ctx.store.ladder().listGames({ limit: 1 }))[0];
        if (!third || game?.subject !== third.id || game.matchId === undefined) return false;
        const results = await ctx.store.listSummaries(game.matchId);
        if (results.length === 0 || (await ctx.store.getMatch(game.matchId))?.status !== 'running') return false;
        playing = game.matchId;
        return true;
      }, 300_000);
      expect(midGame, first.log()).toBe(true);
      first.child.kill('SIGINT');
      const stopped = await first.done;
      expect(stopped.code, stopped.stderr).toBe(0);
      expect(stopped.stdout).toMatch(/^ladder stopped: \d+ game\(s\), \d+ check\(s\), \d+ placement\(s\) this run; the same command continues/);
      expect(stopped.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect((await ctx.store.getMatch(playing!))?.status).toBe('interrupted');

      const again = start();
      await waitView(ctx, (v) => placedWithInterval(v, 'astar', 3), 300_000, again.log);
      expect(again.log()).toMatch(new RegExp(`resuming ladder game \\d+ \\(match ${playing}, sliding 3x3`));
      expect((await ctx.store.getMatch(playing!))?.status).toBe('finished');
      again.child.kill('SIGINT');
      expect((await again.done).code).toBe(0);

      // Every match is a ladder game (nothing was started by hand), readable like any other match.
      const games = await ctx.store.ladder().listGames();
      const matches = await ctx.store.listMatches(10_000);
      expect(new Set(games.map((g) => g.matchId))).toEqual(new Set(matches.map((m) => m.id)));
      expect(matches.every((m) => m.status === 'finished')).toBe(true);
      const show = await spawnArena(['show', String(playing), '--json', '--db', db], {}).done;
      expect(show.code, show.stderr).toBe(0);
      expect(JSON.parse(show.stdout).match.seed).toMatch(/^ladder-e2e\/\d+$/);
      const audit = await spawnArena(['audit', '--db', db], {}).done;
      expect(audit.code, audit.stdout + audit.stderr).toBe(0);
      const status = await spawnArena(['ladder', 'status', '--db', db], {}).done;
      expect(status.stdout).toMatch(/^ladder stopped/);
      expect(status.stdout).toMatch(/astar v3 +-?\d+ +-?\d+ \.\. -?\d+/);
    } finally {
      await ctx.close();
    }
  });
});
