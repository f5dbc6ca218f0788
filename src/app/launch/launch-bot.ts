/**
 * The one launcher: every bot the arena starts (a match's, a worker's, the ladder's, `bot check`'s, the
 * preflight's) is started here from its launch plan, so none of them can drift from the others in its
 * limits, its start timeout, its pinning or whether it is confined.
 */
import type { BotLauncher } from '../../protocol/link.ts';
import type { Confinement } from '../../transport/process/confinement.ts';
import { START_UP_CPU_SECONDS } from '../../transport/process/bot-limits.ts';
import { createProcessLauncher } from '../../transport/process/process-launcher.ts';
import { createRemoteLauncher } from '../../transport/remote-launcher.ts';
import type { ArenaServer } from '../../transport/ws-server.ts';
import { botOwner } from '../bots/bot-owner.ts';
import type { ResolvedBot } from '../bots/bot-registry.ts';
import type { AppContext } from '../context.ts';
import { botCores, type CorePins } from './cores.ts';
import { confinementFor } from './sandbox-policy.ts';
import type { LaunchPlan } from './launch-plan.ts';

/** Where bots are started: the server they dial, the context their sandbox guards, this machine's core pins. */
export interface LaunchSite {
  readonly server: ArenaServer;
  readonly ctx: Pick<AppContext, 'projectRoot' | 'dbLocation'>;
  /** Each parallel player's cores, when the plan asks for pinning and this machine deals them (cores.ts). */
  readonly pins?: CorePins;
  /** A confinement readied (and checked) before play (sandbox-policy.ts's sandboxOfMatch); else one is made here. */
  readonly prepared?: (bot: ResolvedBot) => Confinement | undefined;
}

/**
 * A launcher for `bot` under `plan` at `site`: a spawned process (confined unless the plan is unconfined,
 * pinned to `player`'s cores when the plan asks and the site has pins), or a remote bot awaited on the server.
 */
export function launchBot(bot: ResolvedBot, plan: LaunchPlan, site: LaunchSite, player = 0): BotLauncher {
  if (bot.source === 'remote') return createRemoteLauncher(bot.name, site.server, plan.startTimeoutMs);
  const cpus = plan.affinity && site.pins ? botCores(site.pins.deal, player, bot.name, bot.threads) : undefined;
  const confine = plan.unconfined ? undefined : (site.prepared?.(bot) ?? confinementFor(bot, site.ctx));
  const launcher = createProcessLauncher({
    name: bot.name,
    command: bot.command!,
    args: [...bot.args],
    server: site.server,
    startTimeoutMs: plan.startTimeoutMs,
    limits: plan.limits,
    ...(site.pins && cpus ? { affinity: { cpus, taskset: site.pins.taskset } } : {}),
    ...(confine ? { confine } : {}),
    ...(bot.cwd ? { cwd: bot.cwd } : {}),
    ...(bot.stdio ? { stdio: true } : {}),
    ...(bot.startSnapshot ? { startSnapshot: bot.startSnapshot } : {}),
    // A participant's bot's stderr is its owner's alone: not in the reasons stored with its results.
    ...(botOwner(bot.name) !== undefined ? { stderrInReasons: false } : {}),
  });
  // Everything above that decides the start: a bot kept from a launcher with the same launch is the bot
  // this one would start (the snapshot hash is the version of a registered bot).
  const launch = JSON.stringify({ bot, plan, cpus: cpus ?? null, confined: confine !== undefined, server: site.server.url });
  return { ...launcher, reuse: { launch, cpuMs: START_UP_CPU_SECONDS * 1000 } };
}
