import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { arena, compileC, installSdkInto, pythonExecutable, resultsOf, ROOT, tempFolder } from '../helpers/bot-folders.ts';

// The two examples of examples/, set up as their comments say (the docs' own lines for bots outside the
// checkout are run by bots-outside.test.ts), each registered with
// `arena bot add … --stdio`, passed by `arena bot check` and played in a match: the real CLI, real bot
// processes, a temp database.

describe('examples e2e - bots in other languages', () => {
  it('examples - the C bot, compiled in a temp folder, passes bot check and ties swaps-greedy on optimal answers', async () => {
    const dir = tempFolder('c-bot');
    compileC(join(ROOT, 'examples/c-bot/bot.c'), join(dir, 'bot'));
    const db = join(tempFolder('db'), 'arena.db'); // never in the bot's folder: the sandbox refuses to show a database

    const add = await arena(['bot', 'add', 'c-swaps', '--cmd', './bot', '--cwd', dir, '--stdio'], db);
    expect(add.code, add.stderr).toBe(0);
    const check = await arena(['bot', 'check', 'c-swaps'], db);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toMatch(/all checks passed/);
    expect(check.stdout).toMatch(/ok {4}swaps .* scramble: solved/);

    const match = await arena(['match', 'c-swaps', 'swaps-greedy', '--puzzle', 'swaps', '--size', '30', '--count', '3', '--seed', '5', '--json'], db);
    expect(match.code, match.stderr).toBe(0);
    const results = resultsOf(match.stdout);
    expect(results).toHaveLength(6);
    for (const r of results) {
      expect(r.verdict, r.error).toBe('solved');
      expect(r.moves).toBe(r.optimal); // n − cycles: both bots are optimal
    }

    // Its IDA* on the Manhattan distance plays the 8-puzzle optimally: every answer as long as the referee's
    // own optimum (its breadth-first oracle), and declines a 4×4 it did not declare.
    const sliding = await arena(['match', 'c-swaps', 'reference-bfs', '--puzzle', 'sliding', '--size', '3', '--count', '6', '--seed', '11', '--json'], db);
    expect(sliding.code, sliding.stderr).toBe(0);
    const played = resultsOf(sliding.stdout);
    expect(played).toHaveLength(12);
    for (const r of played) {
      expect(r.verdict, r.error).toBe('solved');
      expect(r.moves).toBe(r.optimal);
    }
  });

  it('examples - the Python bot, with the SDK pip-installed into its folder, passes bot check and matches reference-bfs', async () => {
    const dir = tempFolder('py-bot');
    installSdkInto(dir);
    copyFileSync(join(ROOT, 'examples/python-bot/bot.py'), join(dir, 'bot.py'));
    const db = join(tempFolder('db'), 'arena.db'); // never in the bot's folder: the sandbox refuses to show a database

    const add = await arena(['bot', 'add', 'py-example', '--cmd', `${pythonExecutable()} bot.py`, '--cwd', dir, '--stdio'], db);
    expect(add.code, add.stderr).toBe(0);
    const check = await arena(['bot', 'check', 'py-example'], db);
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toMatch(/all checks passed/);
    expect(check.stdout).toMatch(/ok {4}sliding 3x3 scramble: solved/);
    expect(check.stdout).toMatch(/ok {4}swaps .* scramble: solved/);

    const sliding = await arena(['match', 'py-example', 'reference-bfs', '--puzzle', 'sliding', '--size', '3', '--count', '3', '--seed', '5', '--json'], db);
    expect(sliding.code, sliding.stderr).toBe(0);
    const swaps = await arena(['match', 'py-example', '--puzzle', 'swaps', '--size', '40', '--count', '2', '--seed', '5', '--json'], db);
    expect(swaps.code, swaps.stderr).toBe(0);
    const results = [...resultsOf(sliding.stdout), ...resultsOf(swaps.stdout)];
    expect(results).toHaveLength(8);
    for (const r of results) {
      expect(r.verdict, r.error).toBe('solved');
      expect(r.moves).toBe(r.optimal);
    }
  });
});
