/**
 * Who owns a bot: the participant named before the '/' of its name (`alice/astar` is alice's; submitted
 * bots are named so). A bot registered locally or built in has no owner. What a bot writes to stderr is
 * its owner's alone (records/bot-stderr.ts), which also keeps it out of the reasons stored with its results
 * (launch/launch-bot.ts).
 */

/** The owner of a bot name (`alice/astar --weight 2`): the part of its first word before the '/', or undefined for a bot without one. */
export function botOwner(bot: string): string | undefined {
  const base = bot.trim().split(/\s+/)[0] ?? '';
  const slash = base.indexOf('/');
  return slash > 0 ? base.slice(0, slash) : undefined;
}

/** Whether a bot is a participant's (owned): only submissions make such names. */
export const isOwnedName = (name: string | undefined): boolean => name !== undefined && botOwner(name) !== undefined;
