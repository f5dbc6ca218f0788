import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { runNewMatch } from '../../src/referee/run-match.ts';
import { StartGuard } from '../../src/referee/start-guard.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { slidingBoard } from '../helpers/boards.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { replyWith, ScriptedLauncher } from '../helpers/scripted-link.ts';

// A remote bot that never dials in: the first wait is its start timeout, every later scramble of it fails
// at once with a reason that says so, instead of waiting the whole start timeout again each time.

const boards = ['LU', 'LLUR', 'ULDR', 'LLUURD', 'UULDRD'].map((p) => slidingBoard(3, 3, p));
const states: PuzzleState[] = boards.map((b) => b.state);
const solve = (s: PuzzleState) => boards.find((b) => JSON.stringify(b.state) === JSON.stringify(s))!.solution;
const START_MS = 20_000;

function config(bots: string[]): MatchConfig {
  return { bots, count: states.length, seed: 'unit', timeLimitMs: 1000, maxMoves: 100, concurrency: 1 };
}

/** A match of `far` (a launcher that waits START_MS and fails; remote when `single`) against a solver. */
async function play(single: boolean, code = 'timeout') {
  const clock = new FakeClock();
  const store = createMemoryStore();
  const launchers: ScriptedLauncher[] = [];
  const run = await clock.run(
    runNewMatch(config(['far', 'near']), states, {
      store,
      clock,
      makeLauncher: (bot) => {
        const l =
          bot === 'far'
            ? new ScriptedLauncher(bot, () => ({ fail: `bot far did not connect and say hello within ${START_MS} ms`, code }), { clock, startMs: START_MS })
            : new ScriptedLauncher(bot, () => replyWith(solve, { delayMs: 10 }), { clock });
        if (single && bot === 'far') Object.assign(l, { single: true });
        launchers.push(l);
        return l;
      },
    }),
  );
  const far = (await store.listResults(run.match.id)).filter((r) => r.bot === 'far');
  return { run, far, connects: launchers.filter((l) => l.name === 'far').reduce((n, l) => n + l.connects, 0), elapsed: clock.now() };
}

describe('start guard - a bot that cannot start', () => {
  it('start guard - a remote bot that does not dial in is waited for once; its other scrambles fail at once, saying why', async () => {
    const { run, far, connects, elapsed } = await play(true);
    expect(connects).toBe(1);
    expect(far.map((r) => r.verdict)).toEqual(Array(5).fill('crash'));
    expect(far[0].error).toBe(`could not start: bot far did not connect and say hello within ${START_MS} ms`);
    for (const r of far.slice(1)) {
      expect(r.error).toBe(`not waited for again: it did not dial in when first asked (bot far did not connect and say hello within ${START_MS} ms)`);
      expect(r.wallMs).toBe(0);
    }
    // One start timeout for the whole match, not one per scramble.
    expect(elapsed).toBeLessThan(2 * START_MS);
    expect(run.blocked).toEqual([{ bot: 'far', reason: `bot far did not connect and say hello within ${START_MS} ms`, charged: 4, attempts: 1 }]);
    // Blocked, not restarted: no restart loop is reported for it.
    expect(run.restartLoops).toEqual([]);
  });

  it('start guard - a bot the arena starts gets a second try before it is given up on', async () => {
    const { run, connects, elapsed } = await play(false);
    expect(connects).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(2 * START_MS);
    expect(run.blocked[0]).toMatchObject({ attempts: 2, charged: 3 });
  });

  it('start guard - a remote bot that dialed in but failed its start (not a no-show) may dial again, as any bot may', async () => {
    const { connects, run } = await play(true, 'start-failed');
    expect(connects).toBe(2);
    expect(run.blocked[0]).toMatchObject({ attempts: 2 });
  });

  it('start guard - counts failures in a row per bot, and says why a blocked bot is not started', () => {
    const g = new StartGuard();
    g.started('a', 'boom');
    expect(g.blocked('a')).toBeUndefined();
    g.started('a');
    g.started('a', 'boom');
    expect(g.blocked('a')).toBeUndefined();
    g.started('a', 'boom again');
    expect(g.chargeReason('a')).toBe('not started again: it failed to start 2 times in a row (boom again)');
    g.started('r', 'no dial-in', 1);
    expect(g.chargeReason('r')).toBe('not waited for again: it did not dial in when first asked (no dial-in)');
  });
});
