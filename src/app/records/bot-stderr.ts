/**
 * A bot's stderr of a match (issue 32), for the one who may read it: the bot's owner (the part of its name
 * before '/': `alice/astar` is alice's) and admins. What a bot writes to stderr is its author's debugging
 * channel, and may say how it plays, so no one else sees it; public pages show names, versions, ratings and
 * results. A bot without an owner (registered locally, built in) is the admins' alone, and, on a server
 * that is not private and has no participants at all, its one local user's; the shell holder (the CLI)
 * administers their own database and reads every bot's.
 */
import type { CappedText } from '../../core/capped-text.ts';
import { NO_TEXT, showCapped } from '../../core/capped-text.ts';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import type { ParticipantRecord } from '../../store/participant-types.ts';
import { botOwner } from '../bots/bot-owner.ts';
import type { AppContext } from '../context.ts';

/** Who asks for a bot's stderr. */
export type StderrViewer =
  /** The CLI: whoever holds the shell administers their own database. */
  | { readonly kind: 'shell' }
  /** A participant signed in on the web or holding an API token. */
  | { readonly kind: 'participant'; readonly participant: ParticipantRecord }
  /** Nobody signed in, on a server that is `--private` or not. */
  | { readonly kind: 'anonymous'; readonly privateServer: boolean };

/** A bot's stderr of a match as its reader gets it. */
export interface BotStderrView extends CappedText {
  readonly matchId: number;
  readonly bot: string;
  /** The text as shown: head, a line `[… N bytes cut]` when bytes were cut, tail ('' when it wrote none). */
  readonly text: string;
}

/**
 * Whether `viewer` may read `bot`'s stderr: ok, or `unauthenticated` (nobody signed in, where someone must
 * be) or `forbidden` (signed in, but neither the owner nor an admin).
 */
export async function mayReadStderr(ctx: Pick<AppContext, 'store'>, viewer: StderrViewer, bot: string): Promise<Result<void>> {
  const owner = botOwner(bot);
  if (viewer.kind === 'shell') return ok(undefined);
  if (viewer.kind === 'participant') {
    const p = viewer.participant;
    if (p.admin || (owner !== undefined && p.name === owner)) return ok(undefined);
    return reject('forbidden', `only ${owner ?? 'an admin'}${owner ? ' or an admin' : ''} may read the stderr of ${bot}`);
  }
  // One local user and no accounts: the web view is theirs, as the shell is.
  if (!viewer.privateServer && (await ctx.store.participants().list()).length === 0) return ok(undefined);
  return reject('unauthenticated', `sign in to read the stderr of ${bot}`);
}

/**
 * `bot`'s stderr of match `matchId` for `viewer`: refused as {@link mayReadStderr} says, `no-match` for an
 * unknown match, `no-bot` for a bot that is not in it; empty text when the bot wrote nothing.
 */
export async function botStderr(ctx: Pick<AppContext, 'store'>, viewer: StderrViewer, matchId: number, bot: string): Promise<Result<BotStderrView>> {
  const allowed = await mayReadStderr(ctx, viewer, bot);
  if (!allowed.ok) return allowed;
  const match = await ctx.store.getMatch(matchId);
  if (!match) return reject('no-match', `no match with id ${matchId}`);
  if (!match.bots.includes(bot)) return reject('no-bot', `bot ${bot} did not play in match ${matchId}`);
  const kept = (await ctx.store.stderrs().read(matchId, bot)) ?? NO_TEXT;
  return ok({ matchId, bot, ...kept, text: showCapped(kept) });
}

/** The stderr `viewer` may read of the bots of match `matchId` that wrote any, by bot name. */
export async function readableStderr(ctx: Pick<AppContext, 'store'>, viewer: StderrViewer, matchId: number): Promise<BotStderrView[]> {
  const views: BotStderrView[] = [];
  for (const bot of await ctx.store.stderrs().bots(matchId)) {
    const got = await botStderr(ctx, viewer, matchId, bot);
    if (got.ok) views.push(got.value);
  }
  return views;
}
