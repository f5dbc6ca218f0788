/**
 * A bot version is its code: the hash of its read-only snapshot (src/sandbox/snapshot) and its command
 * line. A command bot plays the snapshot taken when it was registered; when its registered folder changes
 * the ladder takes a new snapshot (refreshSnapshot), and that is a new version. The bot itself cannot make
 * one: it sees its folder read-only, as the snapshot. A built-in bot's folder is bots/<name>/ (the code it
 * shares in bots/shared/ is the checkout's, not the bot's), hashed the same bounded way; a command bot
 * without a folder is its command alone.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { checkFolder } from '../../sandbox/folder.ts';
import { takeSnapshot } from '../../sandbox/snapshot/copy.ts';
import type { NewBotVersion } from '../../store/ladder-types.ts';
import type { ResolvedBot } from '../bots/bot-registry.ts';
import { resolveBot } from '../bots/bot-registry.ts';
import { rivalFolders, snapshotStore, takeBotSnapshot } from '../bots/bot-snapshot.ts';
import { guardedPaths } from '../bots/guarded-paths.ts';
import type { AppContext } from '../context.ts';

/** The version of a resolved bot: its registered snapshot (a built-in: its folder now) and its command line. */
export function versionOf(bot: ResolvedBot, projectRoot: string): Result<NewBotVersion> {
  if (bot.source === 'remote') return reject('remote', `bot ${bot.name} is remote: the ladder cannot start it, so it is not placed`);
  const folder = bot.source === 'builtin' ? join(projectRoot, 'bots', bot.name.split(' ')[0]!) : bot.cwd;
  // A built-in's command line holds this checkout's paths; its name (with flags) is what names its code.
  const command = bot.source === 'builtin' ? bot.name : [bot.command!, ...bot.args].join(' ');
  let snapshot = bot.snapshot?.hash;
  if (snapshot === undefined && folder !== undefined) {
    // Bounded before a byte is read (size, entries, depth): a built-in's folder, or a checkout folder.
    const hashed = takeSnapshot(folder, '', { hashOnly: true });
    if (!hashed.ok) return hashed;
    snapshot = hashed.value.hash;
  }
  const h = createHash('sha256').update(`command\0${command}\0`);
  if (snapshot !== undefined) h.update(`snapshot\0${snapshot}\0`);
  return ok({ bot: bot.name, hash: h.digest('hex'), command, ...(folder !== undefined ? { folder } : {}) });
}

/** A bot as the ladder plays it now, and a line to show when its folder's change could not be taken. */
export interface RefreshedBot {
  readonly bot: ResolvedBot;
  readonly note?: string;
}

/**
 * Takes a new snapshot of a registered bot whose folder changed since its snapshot (hashing first, bounded,
 * and copying only a changed folder), stores it with the registration and resolves the bot again. A folder
 * that cannot be snapshotted (too big, too deep, a special file, a link out, no longer a place for a bot)
 * leaves the registered snapshot playing, with a note saying why.
 */
export async function refreshSnapshot(ctx: AppContext, bot: ResolvedBot): Promise<RefreshedBot> {
  if (bot.source !== 'command' || !bot.snapshot || bot.cwd === undefined) return { bot };
  const base = bot.name.split(' ')[0]!;
  const keep = (why: string): RefreshedBot => ({ bot, note: `${base}: its folder changed, and ${why}; it plays its snapshot ${bot.snapshot!.hash.slice(0, 12)}` });
  // Judged by its real path first: a folder swapped for a link to / is never walked.
  const folder = checkFolder(bot.cwd, guardedPaths(ctx));
  if (!folder.ok) return keep(folder.reason);
  const now = takeSnapshot(folder.value, snapshotStore(ctx), { hashOnly: true });
  if (!now.ok) return keep(now.reason);
  if (now.value.hash === bot.snapshot.hash) return { bot };
  const reg = await ctx.store.getBot(base);
  if (!reg?.cmd) return { bot };
  const taken = takeBotSnapshot(ctx, reg.cmd, bot.cwd, await rivalFolders(ctx, base));
  if (!taken.ok) return keep(taken.reason);
  if (!taken.value) return { bot };
  await ctx.store.setBotSnapshot(base, taken.value.snapshot, taken.value.runtime);
  const again = await resolveBot(ctx, bot.name);
  return again.ok ? { bot: again.value } : keep(again.reason);
}
