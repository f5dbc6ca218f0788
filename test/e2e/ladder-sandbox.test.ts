/**
 * The ladder's sandbox switch, end to end on a real SQLite file with real processes: `arena ladder
 * --no-sandbox` checks its bots unconfined and says so, and plays and records its games unconfined; without
 * the flag, both are confined (the flag once reached neither the games nor the labels).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseMatchConfig } from '../../src/referee/match-config.ts';
import { spawnArena, waitFor } from './helpers.ts';
import { reader } from './ladder-helpers.ts';

/** Two built-in bots on 3×3, each placed after one two-scramble game. */
const FLAGS = ['--puzzle', 'sliding 3x3', '--bot', 'constructive', '--bot', 'dijkstra', '--scrambles', '2', '--min-games', '1', '--max-games', '1', '--budget', '0', '--seed', 'door', '--time-limit', '5s', '--poll', '300ms'];

describe('ladder e2e - the sandbox switch', () => {
  const children: ReturnType<typeof spawnArena>[] = [];
  afterAll(() => {
    for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  });

  /** Runs the ladder until its first game's match is finished, then stops it; its log and the games' configs. */
  async function firstGame(extra: string[]): Promise<{ log: string; unconfined: Array<boolean | undefined> }> {
    const db = join(mkdtempSync(join(tmpdir(), 'arena-ladder-door-')), 'ladder.db');
    const run = spawnArena(['ladder', '--db', db, ...FLAGS, ...extra], {});
    children.push(run);
    let log = '';
    run.child.stderr!.on('data', (d) => (log += d));
    const ctx = await reader(db);
    try {
      const played = await waitFor(async () => {
        const game = (await ctx.store.ladder().listGames({ limit: 1 }))[0];
        return game?.matchId !== undefined && (await ctx.store.getMatch(game.matchId))?.status === 'finished';
      }, 300_000);
      expect(played, log).toBe(true);
      run.child.kill('SIGINT');
      const done = await run.done;
      expect(done.code, done.stderr).toBe(0);
      const unconfined: Array<boolean | undefined> = [];
      for (const g of await ctx.store.ladder().listGames({ limit: 100 })) {
        if (g.matchId === undefined) continue;
        const config = parseMatchConfig((await ctx.store.getMatch(g.matchId))!.config);
        if (!config.ok) throw new Error(config.reason);
        unconfined.push(config.value.unconfined);
      }
      return { log: done.stderr, unconfined };
    } finally {
      await ctx.close();
    }
  }

  it('ladder - --no-sandbox games are recorded unconfined and its checks say so; without it, both are confined', { timeout: 900_000 }, async () => {
    const loose = await firstGame(['--no-sandbox']);
    expect(loose.log).toMatch(/checking constructive v1 \(bot check, UNCONFINED: --no-sandbox\)/);
    expect(loose.log).not.toMatch(/\(bot check, confined\)/);
    expect(loose.unconfined.length).toBeGreaterThan(0);
    expect(loose.unconfined.every((u) => u === true)).toBe(true);

    const confined = await firstGame([]);
    expect(confined.log).toMatch(/checking constructive v1 \(bot check, confined\)/);
    expect(confined.log).not.toMatch(/UNCONFINED/);
    expect(confined.unconfined.length).toBeGreaterThan(0);
    expect(confined.unconfined.every((u) => u !== true)).toBe(true);
  });
});
