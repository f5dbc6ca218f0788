import type { BotLauncher } from '../protocol/link.ts';
import type { BotLimits } from '../transport/bot-limits.ts';
import type { Confinement } from '../transport/confinement.ts';
import { createProcessLauncher } from '../transport/process-launcher.ts';
import { createRemoteLauncher } from '../transport/remote-launcher.ts';
import type { ArenaServer } from '../transport/ws-server.ts';
import type { ResolvedBot } from './bot-registry.ts';

/** A launcher for a resolved bot on `server`: a spawned process, or a remote bot awaited on the server. */
export function launcherFor(
  bot: ResolvedBot,
  server: ArenaServer,
  opts: {
    startTimeoutMs: number;
    limits?: Partial<BotLimits>;
    affinity?: { readonly cpus: readonly number[]; readonly taskset: string };
    /** Start it in this sandbox (sandbox-policy.ts decides); absent = unconfined. */
    confine?: Confinement;
  },
): BotLauncher {
  if (bot.source === 'remote') return createRemoteLauncher(bot.name, server, opts.startTimeoutMs);
  return createProcessLauncher({
    name: bot.name,
    command: bot.command!,
    args: [...bot.args],
    server,
    startTimeoutMs: opts.startTimeoutMs,
    ...(opts.limits ? { limits: opts.limits } : {}),
    ...(opts.affinity ? { affinity: opts.affinity } : {}),
    ...(opts.confine ? { confine: opts.confine } : {}),
    ...(bot.cwd ? { cwd: bot.cwd } : {}),
    ...(bot.stdio ? { stdio: true } : {}),
  });
}
