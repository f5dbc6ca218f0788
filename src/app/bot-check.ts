import type { Result } from '../core/types.ts';
import { checkBot as runCompliance, type CheckLine } from '../referee/compliance.ts';
import { startArenaServer } from '../transport/ws-server.ts';
import { admitRemoteBots } from './admission.ts';
import { resolveBot } from './bot-registry.ts';
import type { AppContext } from './context.ts';
import { launcherFor } from './launchers.ts';

export type { CheckLine } from '../referee/compliance.ts';

/** How long `bot check` lets a bot take to start. */
const CHECK_START_TIMEOUT_MS = 30_000;

/** The compliance run of one bot (built-in or registered, optionally with extra flags). */
export async function checkBot(ctx: AppContext, o: { name: string; timeLimitMs: number }): Promise<Result<CheckLine[]>> {
  const bot = await resolveBot(ctx, o.name);
  if (!bot.ok) return bot;
  // Only the checked bot may dial in: a remote bot by its registered token, a spawned one by its own.
  const server = await startArenaServer({ authenticate: admitRemoteBots([bot.value]) });
  try {
    const launcher = launcherFor(bot.value, server, { startTimeoutMs: CHECK_START_TIMEOUT_MS });
    return { ok: true, value: await runCompliance(launcher, ctx.clock, o.timeLimitMs) };
  } finally {
    await server.close();
  }
}
