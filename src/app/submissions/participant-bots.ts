/**
 * A participant's bots for their page, and withdrawing one. Everyone sees a participant's bots, each
 * version's ladder number, status, games and ratings; the owner and admins also see each version's
 * submission and the ladder's note (a failed check's reason). Build logs are only ever shown through
 * buildLogOf, to the owner and admins.
 */
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { botVersions } from '../ladder/ladder-status.ts';
import type { AppContext } from '../context.ts';
import { mayActOn, ownerOf } from './submission-names.ts';
import type { Caller } from './submission-shapes.ts';

/** One version of a participant's bot. */
export interface ParticipantBotVersion {
  /** Its number on the ladder: `alice/astar v3`. */
  readonly number: number;
  readonly status: 'new' | 'checking' | 'failed' | 'placing' | 'placed';
  /** Ladder games it played. */
  readonly games: number;
  /** Its rating in each class it played (Elo and its interval). */
  readonly ratings: readonly { readonly puzzleClass: string; readonly rating: number; readonly low: number; readonly high: number; readonly games: number }[];
  /** Owner and admins only: the submission it came from. */
  readonly submission?: number;
  /** Owner and admins only: why it has its status (a failed check's reason). */
  readonly note?: string;
  readonly createdAt: string;
}

/** One bot of a participant. */
export interface ParticipantBot {
  readonly name: string;
  /** Whether it is registered now (false once withdrawn: its versions and results stay). */
  readonly registered: boolean;
  /** Newest first. */
  readonly versions: readonly ParticipantBotVersion[];
}

/** The bots of participant `name` as `viewer` (undefined: signed out) may see them. */
export async function participantBots(ctx: AppContext, viewer: Caller | undefined, name: string): Promise<Result<ParticipantBot[]>> {
  const known = (await ctx.store.participants().list()).some((p) => p.name === name);
  if (!known) return reject('not-found', `no participant "${name}"`);
  const full = viewer !== undefined && (viewer.admin || viewer.name === name);
  const subs = await ctx.store.submissions().list(name);
  const registered = new Set((await ctx.store.listBots()).filter((b) => ownerOf(b.name) === name).map((b) => b.name));
  const names = [...new Set([...registered, ...subs.map((s) => s.bot)])].sort();
  const out: ParticipantBot[] = [];
  for (const bot of names) {
    const versions = (await botVersions(ctx, bot)).map((v): ParticipantBotVersion => {
      const sub = subs.find((s) => s.bot === bot && s.ladderHash === v.hash);
      return {
        number: v.number,
        status: v.status,
        games: v.games,
        ratings: v.ratings.map((r) => ({ puzzleClass: r.puzzleClass, rating: r.rating, low: r.low, high: r.high, games: r.games })),
        ...(full && sub ? { submission: sub.id } : {}),
        ...(full && v.note !== undefined ? { note: v.note } : {}),
        createdAt: v.createdAt,
      };
    });
    out.push({ name: bot, registered: registered.has(bot), versions });
  }
  return ok(out);
}

/** Unregisters a submitted bot: its owner or an admin only. Its versions, games and results stay. */
export async function withdraw(ctx: AppContext, caller: Caller, bot: string): Promise<Result<{ readonly bot: string }>> {
  const reg = await ctx.store.getBot(bot);
  if (!reg || reg.owner === undefined) return reject('not-found', `no submitted bot named "${bot}"`);
  if (!mayActOn(caller, bot)) return reject('forbidden', `${bot} belongs to ${reg.owner}: only they (or an admin) may withdraw it`);
  await ctx.store.removeBot(bot);
  return ok({ bot });
}
