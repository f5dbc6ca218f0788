/**
 * Who owns a bot: the participant named before the '/' of its name (`alice/astar` is alice's; submitted
 * bots are named so). A bot registered locally or built in has no owner. What a bot writes to stderr is
 * its owner's alone (records/bot-stderr.ts), which also keeps it out of the reasons stored with its results
 * (launch/launch-bot.ts).
 */

/** The owner of a bot name: the part before its '/', or undefined for a bot without one. */
export function botOwner(bot: string): string | undefined {
  const slash = bot.indexOf('/');
  return slash > 0 ? bot.slice(0, slash) : undefined;
}
