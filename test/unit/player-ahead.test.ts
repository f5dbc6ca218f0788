/**
 * The player's next job started in the turn the answer before it arrives (player.ts, PlayerBots.ahead):
 * only where the job source allows it (no SPRT), only on the same kept link, never on a link the last answer
 * broke, and with nothing recorded for it when the player stops.
 */
import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import { sequenceJobSource, type Job, type JobSource } from '../../src/referee/job-source.ts';
import { runPlayer, type Recorded } from '../../src/referee/player.ts';
import { StartGuard } from '../../src/referee/start-guard.ts';
import type { ResultRecord, ScrambleRecord } from '../../src/store/types.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { answers, states } from '../helpers/match-harness.ts';
import { ScriptedLauncher, silent, type ConnectPlan } from '../helpers/scripted-link.ts';

const limits = { timeLimitMs: 1000, maxMoves: 100, startTimeoutMs: 1000 };

/** One job per board, for `bots[k % bots.length]`. */
function jobs(bots: string[], boards: readonly PuzzleState[] = states.slice(0, 4)): Job[] {
  return boards.map((state, k) => {
    const scramble: ScrambleRecord = { id: k + 1, matchId: 1, index: k, state, puzzleClass: 'sliding 3x3', bound: { lowerBound: 0 } } as ScrambleRecord;
    return { matchId: 1, bot: bots[k % bots.length]!, scrambles: [scramble], limits };
  });
}

/**
 * Plays `list` on one player; `onPlayed` sees each result as it is validated. Returns the recorded results,
 * the launchers by bot and, per played result, how many solves its bot's current link had been sent then.
 */
async function play(list: Job[], prefetch: boolean, plans: Record<string, (attempt: number) => ConnectPlan>, onPlayed?: (r: Recorded) => void, signal?: AbortSignal) {
  const clock = new FakeClock();
  const launchers = new Map<string, ScriptedLauncher>();
  const recorded: ResultRecord[] = [];
  const solvesSentAtPlayed: number[] = [];
  const source: JobSource = { ...sequenceJobSource(list), prefetch };
  const store = {
    recordResult: async (r: ResultRecord) => void recorded.push(r),
    recordResults: async (rs: readonly ResultRecord[]) => void recorded.push(...rs),
  };
  await clock.run(
    runPlayer(source, {
      store,
      clock,
      starts: new StartGuard(),
      ...(signal ? { signal } : {}),
      makeLauncher: (bot) => {
        const l = new ScriptedLauncher(bot, plans[bot]!, { clock });
        launchers.set(bot, l);
        return l;
      },
      onPlayed: (r) => {
        const link = launchers.get(r.job.bot)!.links.at(-1)!;
        solvesSentAtPlayed.push(link.sentOf('solve').length);
        onPlayed?.(r);
      },
    }),
  );
  return { recorded, launchers, solvesSentAtPlayed };
}

describe('player ahead - the next job starts as the answer before it arrives', () => {
  it('player ahead - the next solve leaves with the answer’s result, before the answer is validated onward; results are as without', async () => {
    const on = await play(jobs(['a']), true, { a: () => answers() });
    // When result k reaches onPlayed, solve k+1 is out already (none after the last).
    expect(on.solvesSentAtPlayed).toEqual([2, 3, 4, 4]);
    const link = on.launchers.get('a')!.links[0]!;
    expect(link.sent.map((m) => m.type)).toEqual(['solve', 'result', 'solve', 'result', 'solve', 'result', 'solve', 'result', 'bye']);
    // Each result is for the solve before the next one sent: the protocol's order is kept.
    const solves = link.sentOf('solve').map((m) => m.id);
    expect(link.sentOf('result').map((m) => m.id)).toEqual(solves);
    const off = await play(jobs(['a']), false, { a: () => answers() });
    expect(off.solvesSentAtPlayed).toEqual([1, 2, 3, 4]);
    const strip = (rs: ResultRecord[]) => rs.map((r) => [r.scrambleId, r.verdict, r.moveCount, r.wallMs]);
    expect(strip(on.recorded)).toEqual(strip(off.recorded));
    expect(on.recorded.every((r) => r.verdict === 'solved' && r.wallMs === 10)).toBe(true);
  });

  it('player ahead - after a time-out the next job is not sent on the broken link: a fresh bot plays it', async () => {
    const r = await play(jobs(['a']), true, { a: (attempt) => (attempt === 0 ? [answers(), silent] : answers()) });
    expect(r.recorded.map((x) => x.verdict)).toEqual(['solved', 'timeout', 'solved', 'solved']);
    const [first, second] = r.launchers.get('a')!.links;
    expect(first!.sentOf('solve')).toHaveLength(2);
    expect(second!.sentOf('solve')).toHaveLength(2);
  });

  it('player ahead - a next job for another bot waits for its own link', async () => {
    const r = await play(jobs(['a', 'b']), true, { a: () => answers(), b: () => answers() });
    expect(r.solvesSentAtPlayed).toEqual([1, 1, 2, 2]);
    expect(r.recorded.map((x) => x.verdict)).toEqual(['solved', 'solved', 'solved', 'solved']);
  });

  it('player ahead - a player stopped with the next solve out records nothing for it and cancels it', async () => {
    const stop = new AbortController();
    const r = await play(jobs(['a']), true, { a: () => answers() }, (p) => p.scramble.index === 1 && stop.abort(), stop.signal);
    expect(r.recorded.map((x) => x.scrambleId)).toEqual([1, 2]);
    const link = r.launchers.get('a')!.links[0]!;
    const third = link.sentOf('solve')[2]!.id;
    expect(link.sentOf('cancel').map((m) => m.id)).toEqual([third]);
  });
});
