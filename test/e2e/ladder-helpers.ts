/**
 * Shared by the ladder's end-to-end tests: the ladder's flags, its view read in-process from the same
 * database the spawned ladder writes, and a wait on it (the bot's folder: ../helpers/ladder-bot.ts).
 */
import { expect } from 'vitest';
import type { OpenContext } from '../../src/app/context.ts';
import { ladderView, type LadderView } from '../../src/app/ladder/ladder-status.ts';
import { spawnArena, waitFor } from './helpers.ts';

export { addAstar, astarFolder, changeBot, reader } from '../helpers/ladder-bot.ts';

/** The ladder on 3×3 with three built-in bots, small enough to place a bot in a minute or two. */
export const LADDER_FLAGS = [
  '--puzzle', 'sliding 3x3', '--bot', 'constructive', '--bot', 'ida-star', '--bot', 'dijkstra',
  '--scrambles', '4', '--min-games', '4', '--max-games', '8', '--target', '400', '--budget', '0',
  '--seed', 'e2e', '--time-limit', '5s', '--poll', '300ms',
];

/** Waits until `pred` holds on the ladder's view (read every 300 ms), failing with the last view and `log()`. */
export async function waitView(ctx: OpenContext, pred: (v: LadderView) => boolean, ms: number, log: () => string): Promise<LadderView> {
  let last: LadderView | undefined;
  const ok = await waitFor(async () => pred((last = await ladderView(ctx))), ms);
  if (!ok) expect.fail(`the ladder did not get there in ${ms} ms; last view: ${JSON.stringify(last?.activity)}\n${log()}`);
  return last!;
}

/** The version of `bot` numbered `n`, placed, ranked on 3×3 with a finite interval. */
export function placedWithInterval(v: LadderView, bot: string, n: number): boolean {
  const version = v.versions.find((x) => x.bot === bot && x.number === n);
  const ranked = v.classes[0]?.ranking.find((r) => r.versionId === version?.id);
  return version?.status === 'placed' && ranked !== undefined && Number.isFinite(ranked.low) && Number.isFinite(ranked.high) && ranked.low < ranked.high;
}

/** `arena ladder --db db …flags`, kept in `children` (the test kills what is left), with its stderr so far as log(). */
export function startLadder(db: string, flags: readonly string[], children: ReturnType<typeof spawnArena>[]): ReturnType<typeof spawnArena> & { log(): string } {
  const run = spawnArena(['ladder', '--db', db, ...flags], {});
  let err = '';
  run.child.stderr!.on('data', (d) => (err += d));
  children.push(run);
  return { ...run, log: () => err };
}
