/**
 * `arena ladder` refuses bad input with one line and a non-zero exit, never a stack trace, before it
 * starts anything; `arena ladder status` on a database the ladder never ran on says so.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
});
