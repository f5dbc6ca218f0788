/**
 * Replays of stored answers: one bot's (or two bots') moves on one scramble of a match, re-validated move by
 * move with the puzzle's own validator, as a stream of positions. The stored verdict is compared with what
 * the moves do today, so a result whose moves were altered in the database is reported, not shown as solved.
 */
import { scrambleIndexOf } from '../../core/scramble-number.ts';
import type { Result, ReplayOutcome } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import type { MatchRecord, ResultRow, ResultSummary, ScrambleRecord } from '../../store/types.ts';
import type { AppContext } from '../context.ts';
import { streamFrames, type ReplayFrame } from './replay-frames.ts';

export type { ReplayFrame } from './replay-frames.ts';

/** What to replay. */
export interface ReplayOptions {
  readonly match: number;
  /** The scramble's number, from 1, as every surface numbers scrambles. */
  readonly scramble: number;
  /** Bots as recorded, or a name alone when it is unambiguous in the match; default the match's first bot. */
  readonly bots?: readonly string[];
}

/** One bot's stored answer being replayed. */
export interface ReplayTrack {
  readonly bot: string;
  /** The stored result without its moves (verdict, count, times, reason). */
  readonly stored: ResultSummary;
  /** Moves in the stored answer (as the referee counted them). */
  readonly moveCount: number;
  /**
   * The positions, start first, then after every `every`-th move (default 1) and the last; the generator's
   * return value is what the validator says today. Each call replays afresh, streaming the stored moves a
   * block at a time (Store.readMoves), so an answer of any length replays in bounded memory.
   */
  frames(every?: number): AsyncGenerator<ReplayFrame, ReplayOutcome>;
}

/** A replay: the match, the scramble and one track per bot. */
export interface Replay {
  readonly match: MatchRecord;
  readonly scramble: ScrambleRecord;
  readonly tracks: readonly ReplayTrack[];
}

/** Finds a bot of the match: exactly as recorded, or by its name when one recorded variant has it. */
export function findMatchBot(match: MatchRecord, name: string): Result<string> {
  if (match.bots.includes(name)) return { ok: true, value: name };
  const byName = match.bots.filter((b) => b.split(' ')[0] === name);
  if (byName.length === 1) return { ok: true, value: byName[0] };
  const list = match.bots.map((b) => JSON.stringify(b)).join(', ');
  if (byName.length > 1) return reject('ambiguous-bot', `"${name}" played match ${match.id} in several variants (${list}); name one in full`);
  return reject('no-bot', `bot "${name}" is not in match ${match.id} (its bots: ${list})`);
}

/** Loads the stored answers and starts their replays. */
export async function replayMatch(ctx: AppContext, o: ReplayOptions): Promise<Result<Replay>> {
  const match = await ctx.store.getMatch(o.match);
  if (!match) return reject('no-match', `no match with id ${o.match}`);
  const index = scrambleIndexOf(o.scramble);
  const [scramble] = await ctx.store.listScrambles(match.id, { from: index, limit: 1 });
  if (scramble?.index !== index) {
    const count = (await ctx.store.scrambleClasses(match.id)).reduce((n, c) => n + c.count, 0);
    return reject('no-scramble', `match ${match.id} has scrambles 1 to ${count}, not ${o.scramble}`);
  }
  const names = o.bots && o.bots.length ? o.bots : [match.bots[0]];
  const tracks: ReplayTrack[] = [];
  for (const name of names) {
    const bot = findMatchBot(match, name);
    if (!bot.ok) return bot;
    const stored = await ctx.store.getSummary(scramble.id, bot.value);
    if (!stored) return reject('not-played', `${bot.value} has no result for scramble ${o.scramble} of match ${match.id} yet`);
    const frames = (every = 1) => streamFrames(scramble.state, ctx.store.readMoves(scramble.id, bot.value), { every });
    tracks.push({ bot: bot.value, stored, moveCount: stored.moveCount, frames });
  }
  return { ok: true, value: { match, scramble, tracks } };
}

/** What today's replay says against the stored result, in one line; `ok` false when they disagree. */
export function checkReplay(stored: Pick<ResultRow, 'verdict' | 'moveCount'>, now: ReplayOutcome): { ok: boolean; text: string } {
  const today = now.verdict === 'solved' ? `solved in ${now.moves} moves` : `not solved: ${now.reason}`;
  if (stored.verdict === 'solved') {
    if (now.verdict === 'solved' && now.moves === stored.moveCount) return { ok: true, text: `re-validated: ${today}, as recorded` };
    return { ok: false, text: `MISMATCH: recorded solved in ${stored.moveCount} moves, but the stored moves are ${today}` };
  }
  if (now.verdict === 'solved') {
    return { ok: false, text: `MISMATCH: recorded ${stored.verdict}, but the stored moves are ${today}` };
  }
  return { ok: true, text: `re-validated: ${today} (recorded ${stored.verdict})` };
}
