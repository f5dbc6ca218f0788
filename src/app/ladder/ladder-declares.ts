/**
 * Which of the ladder's classes a bot plays: it is started once, in the sandbox a match gives it, and its
 * `hello` read; each class is checked against what it declares the way a match's preflight does. A bot
 * that does not start says why (the ladder reports it, as it reports a failed check).
 */
import type { Result } from '../../core/types.ts';
import type { Capability } from '../../protocol/messages.ts';
import { reject } from '../../core/types.ts';
import { declinesOf, specSamples } from '../../referee/preflight.ts';
import { startArenaServer } from '../../transport/ws-server.ts';
import { admitRemoteBots } from '../launch/admission.ts';
import type { ResolvedBot } from '../bots/bot-registry.ts';
import type { AppContext } from '../context.ts';
import type { LadderClass } from './ladder-classes.ts';
import type { PlaySettings } from '../../referee/settings/stored-settings.ts';
import { MATCH_DEFAULTS } from '../../referee/settings/match-settings.ts';
import { launchBot } from '../launch/launch-bot.ts';
import { launchPlanOf } from '../launch/launch-plan.ts';
import { decideNewMatch } from '../launch/sandbox-policy.ts';

/** The classes the bot plays and those it declines, with the bot's reason. */
export interface Declared {
  readonly plays: readonly string[];
  readonly declines: readonly { readonly puzzleClass: string; readonly reason: string }[];
}

/**
 * Which of `classes` a bot that declared `caps` plays, checked the way a match's preflight checks them (the
 * ladder reads `caps` from its check's hello, which is the same start this module would make).
 */
export function classesOf(name: string, caps: readonly Capability[], classes: readonly LadderClass[]): Result<Declared> {
  const plays: string[] = [];
  const declines: Array<{ puzzleClass: string; reason: string }> = [];
  for (const c of classes) {
    const samples = specSamples(c.spec);
    if (!samples.ok) return samples;
    const d = declinesOf(name, caps, samples.value);
    if (d.length === 0) plays.push(c.name);
    else declines.push({ puzzleClass: c.name, reason: d[0]!.reason });
  }
  return { ok: true, value: { plays, declines } };
}

/**
 * Starts `bot` under the ladder's settings (confined unless they say unconfined, or the machine cannot
 * confine and it is a built-in bot), as its games will start it, and reads what it declares.
 */
export async function declaredClasses(ctx: AppContext, bot: ResolvedBot, classes: readonly LadderClass[], settings: PlaySettings): Promise<Result<Declared>> {
  const decision = decideNewMatch([bot], settings.unconfined === true);
  if (!decision.ok) return decision;
  const plan = launchPlanOf({ ...settings, timeLimitMs: settings.timeLimitMs ?? MATCH_DEFAULTS.timeLimitMs, unconfined: !decision.value.confined });
  const server = await startArenaServer({ host: '127.0.0.1', port: 0, authenticate: admitRemoteBots([bot]) });
  try {
    const launcher = launchBot(bot, plan, { server, ctx });
    try {
      const got = await launcher.connect();
      if (!got.ok) return reject('no-start', `${bot.name} did not start: ${got.reason}`);
      const caps = got.value.hello.capabilities;
      await got.value.close('ladder: capabilities read');
      return classesOf(bot.name, caps, classes);
    } finally {
      await launcher.dispose();
    }
  } finally {
    await server.close();
  }
}
