/**
 * Shared by the ladder's end-to-end tests: the command bot of a temp folder (given to nobody when run as
 * root, as the README tells root to do), the ladder's view read in-process from the same database the
 * spawned ladder writes, and a wait on it.
 */
import { appendFileSync, copyFileSync, mkdtempSync } from 'node:fs';
import { chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openContext, type OpenContext } from '../../src/app/context.ts';
import { ladderView, type LadderView } from '../../src/app/ladder-status.ts';
import { ROOT, waitFor } from './helpers.ts';

/** The ladder on 3×3 with three built-in bots, small enough to place a bot in a minute or two. */
export const LADDER_FLAGS = [
  '--puzzle', 'sliding 3x3', '--bot', 'constructive', '--bot', 'ida-star', '--bot', 'dijkstra',
  '--scrambles', '4', '--min-games', '4', '--max-games', '8', '--target', '400', '--budget', '0',
  '--seed', 'e2e', '--time-limit', '5s', '--poll', '300ms',
];

/** A temp folder holding the A* command bot (test/fixtures/ladder/astar-bot.mjs as bot.mjs). */
export function astarFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'arena-ladder-bot-'));
  copyFileSync(join(ROOT, 'test/fixtures/ladder/astar-bot.mjs'), join(dir, 'bot.mjs'));
  giveToNobody(dir);
  return dir;
}

/** Changes the bot's code (a comment is enough: the version is the hash of its files). */
export function changeBot(dir: string, mark: string): void {
  appendFileSync(join(dir, 'bot.mjs'), `// ${mark}\n`);
  giveToNobody(dir);
}

function giveToNobody(dir: string): void {
  if (process.getuid?.() !== 0) return;
  chownSync(dir, 65534, 65534);
  chownSync(join(dir, 'bot.mjs'), 65534, 65534);
}

/** The `arena bot add` arguments of the A* bot in `dir`. */
export const addAstar = (dir: string): string[] => ['bot', 'add', 'astar', '--cmd', `${process.execPath} bot.mjs`, '--cwd', dir, '--stdio'];

/** Opens the database the ladder writes, to read its view between steps. */
export async function reader(db: string): Promise<OpenContext> {
  const ctx = await openContext({ db });
  if (!ctx.ok) throw new Error(ctx.reason);
  return ctx.value;
}

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
