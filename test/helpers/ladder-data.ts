/**
 * A ladder written straight to a store, without playing: versions, ladder games as finished matches whose
 * results make the first bot named win `wins` of the scrambles, and the ladder's activity. For page and
 * benchmark tests that need a ladder's rows, not its bots.
 */
import type { LadderActivity } from '../../src/app/ladder/ladder.ts';
import type { BotVersion } from '../../src/store/ladder-types.ts';
import type { Store } from '../../src/store/types.ts';

const GOAL = { kind: 'sliding', rows: 3, cols: 3, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 0] } as const;

/** Saves a version of `bot` with `hash` and sets its status and classes. */
export async function version(store: Store, bot: string, hash: string, status: BotVersion['status'], classes = ['sliding 3x3']): Promise<BotVersion> {
  const v = await store.ladder().saveVersion({ bot, hash, command: `${bot} --cmd`, folder: `/bots/${bot}` });
  await store.ladder().updateVersion(v.id, { status, classes });
  return v;
}

/** One finished ladder game of `scrambles` scrambles between a and b; a wins the first `wins`, b the rest. */
export async function game(store: Store, a: BotVersion, b: BotVersion, scrambles: number, wins: number, purpose: 'placement' | 'upkeep' = 'placement'): Promise<number> {
  const seed = `ladder-test/${Math.random().toString(36).slice(2)}`;
  const g = await store.ladder().addGame({ seed, puzzleClass: 'sliding 3x3', purpose, ...(purpose === 'placement' ? { subject: a.id } : {}), entries: [{ bot: a.bot, versionId: a.id }, { bot: b.bot, versionId: b.id }], why: `${purpose} of ${a.bot}` });
  const m = await store.createMatch({
    config: {},
    seed,
    generatorVersion: 'test',
    bots: [a.bot, b.bot],
    scrambles: Array.from({ length: scrambles }, (_, index) => ({ index, state: GOAL, puzzleClass: 'sliding 3x3', bound: { lowerBound: 20, optimal: 20 } })),
  });
  const list = await store.listScrambles(m.id);
  for (const [i, s] of list.entries()) {
    const aWins = i < wins;
    await store.recordResult({ scrambleId: s.id, bot: a.bot, verdict: 'solved', moveCount: aWins ? 20 : 24, moves: 'U'.repeat(aWins ? 20 : 24), wallMs: 5 });
    await store.recordResult({ scrambleId: s.id, bot: b.bot, verdict: 'solved', moveCount: aWins ? 24 : 20, moves: 'U'.repeat(aWins ? 24 : 20), wallMs: 5 });
  }
  await store.setMatchStatus(m.id, 'finished');
  await store.ladder().setGameMatch(g.id, m.id);
  return m.id;
}

/** Stores what the ladder says it is doing. */
export async function activity(store: Store, state: LadderActivity['state'], doing: string, why: string): Promise<void> {
  const a: LadderActivity = { state, doing, why, at: '2026-11-25T12:00:00.000Z', pid: 1, classes: ['sliding 3x3'], rule: { targetWidth: 200, minGames: 10, maxGames: 100 }, budgetLeft: 50 };
  await store.ladder().setState('activity', JSON.stringify(a));
}
