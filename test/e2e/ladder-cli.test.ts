/**
 * `arena ladder` refuses bad input with one line and a non-zero exit, never a stack trace, before it
 * starts anything; `arena ladder status` on a database the ladder never ran on says so, and on one it ran
 * on gives its pace (games per minute) in text and JSON.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openContext } from '../../src/app/context.ts';
import { activity, game, version } from '../helpers/ladder-data.ts';
import { spawnArena } from './helpers.ts';

describe('ladder cli - bad input', () => {
  const db = join(mkdtempSync(join(tmpdir(), 'arena-ladder-cli-')), 'l.db');
  const arena = async (args: string[]) => spawnArena([...args, '--db', db], {}).done;

  it('ladder - one line per mistake, exit 1', async () => {
    const cases: [string[], RegExp][] = [
      [['ladder', '--puzzle', 'sliding 3'], /^arena: puzzle class "sliding 3" is not a class of sliding/],
      [['ladder', '--puzzle', 'cube 3x3'], /^arena: puzzle class "cube 3x3": unknown kind cube/],
      [['ladder', '--budget', '-1'], /^arena: --budget must be a whole number from 0 to/],
      [['ladder', '--target', '0'], /^arena: --target must be a whole number from 1 to/],
      [['ladder', '--time-limit', '10'], /^arena: --time-limit/],
      [['ladder', '--puzzle', 'sliding 3x3', '--bot', 'no-such-bot'], /^arena: unknown bot "no-such-bot"/],
    ];
    for (const [args, message] of cases) {
      const r = await arena(args);
      expect(r.code, args.join(' ')).toBe(1);
      const lines = r.stderr.trim().split('\n').filter((l) => l.startsWith('arena:'));
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  }, 120_000);

  it('ladder status - says the ladder has not run here yet', async () => {
    const r = await arena(['ladder', 'status']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('the ladder has not run on this database yet: start it with arena ladder\n');
    const json = await arena(['ladder', 'status', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ classes: [], versions: [], recent: [] });
  }, 60_000);

  it('ladder status - the pace in text and --json: games per minute over the window ending at the last game', async () => {
    const paced = join(mkdtempSync(join(tmpdir(), 'arena-ladder-pace-')), 'l.db');
    const opened = await openContext({ db: paced });
    if (!opened.ok) throw new Error(opened.reason);
    const ctx = opened.value;
    try {
      const a = await version(ctx.store, 'alice/astar', 'h1', 'placed');
      const b = await version(ctx.store, 'bob/ida', 'h1', 'placed');
      for (let i = 0; i < 3; i++) await game(ctx.store, a, b, 2, 1);
      await activity(ctx.store, 'stopped', 'stopped', 'test');
    } finally {
      await ctx.close();
    }
    const json = await spawnArena(['ladder', 'status', '--json', '--db', paced], {}).done;
    expect(json.code, json.stderr).toBe(0);
    const pace = JSON.parse(json.stdout).pace;
    expect(pace.games).toBe(3);
    expect(pace.minutes).toBeGreaterThan(0);
    expect(pace.perMinute).toBeCloseTo(3 / pace.minutes, 6);
    const text = await spawnArena(['ladder', 'status', '--db', paced], {}).done;
    expect(text.stdout).toMatch(/^ {2}pace: \d+\.\d games per minute \(3 games in the last \d+\.\d min\)$/m);
  }, 60_000);
});
