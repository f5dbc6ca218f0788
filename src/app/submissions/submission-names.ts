/**
 * Whose a submitted bot is. Names are owned: a manifest's `astar` becomes `caller/astar`; `alice/astar` is
 * alice's, and only she (or an admin) submits versions of it or withdraws it. A name is refused when it
 * could be mistaken for another bot: its bot part is (or looks like) a built-in's name, or the whole name
 * looks like a registered bot of someone else (`a1ice/astar` beside `alice/astar`).
 */
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import type { Manifest } from '../../intake/manifest.ts';
import { listBuiltinBots } from '../../transport/process/builtin-bots.ts';
import { lookAlike } from '../bots/bot-names.ts';
import type { AppContext } from '../context.ts';
import type { Caller } from './submission-shapes.ts';

/** The owner of a submitted bot's name: the part before '/' (undefined for a name without one). */
export function ownerOf(name: string): string | undefined {
  const at = name.indexOf('/');
  return at > 0 ? name.slice(0, at) : undefined;
}

/** Whether `caller` may act on the submitted bot `name` (its owner, or an admin). */
export const mayActOn = (caller: Caller, name: string): boolean => caller.admin || ownerOf(name) === caller.name;

/** The owned name a manifest submitted by `caller` gives its bot, or why it is refused (`forbidden`: HTTP 403). */
export async function ownedName(ctx: AppContext, caller: Caller, manifest: Manifest): Promise<Result<{ readonly name: string; readonly owner: string }>> {
  const owner = manifest.owner ?? caller.name;
  const name = `${owner}/${manifest.bot}`;
  if (owner !== caller.name && !caller.admin) {
    return reject('forbidden', `${name} belongs to ${owner}: only ${owner} (or an admin) may submit versions of it`);
  }
  if (owner !== caller.name) {
    const known = (await ctx.store.participants().list()).find((p) => p.name === owner);
    if (!known) return reject('not-found', `there is no participant "${owner}" to submit ${name} for`);
  }
  const builtins = listBuiltinBots(ctx.projectRoot);
  const builtin = lookAlike(manifest.bot, builtins);
  if (builtin !== undefined) return reject('taken', `"${manifest.bot}" is the name of the built-in bot "${builtin}" (or looks like it): ${name} would be mistaken for it; pick another name`);
  const registered = await ctx.store.listBots();
  const same = registered.find((b) => b.name === name);
  if (same && same.owner !== owner) return reject('forbidden', `a bot named ${name} is registered and was not submitted by ${owner}`);
  const twin = lookAlike(name, registered.filter((b) => b.name !== name).map((b) => b.name));
  if (twin !== undefined) return reject('look-alike', `${name} is too easily confused with the registered bot "${twin}"; pick a clearly different name`);
  return ok({ name, owner });
}
