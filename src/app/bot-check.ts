import type { Result } from '../core/types.ts';
import { checkBot as runCompliance, type CheckLine } from '../referee/compliance.ts';
import { sandboxSupport, type SandboxSupport } from '../sandbox/probe.ts';
import { startArenaServer } from '../transport/ws-server.ts';
import { admitRemoteBots } from './admission.ts';
import { resolveBot } from './bot-registry.ts';
import type { AppContext } from './context.ts';
import { launcherFor } from './launchers.ts';
import { confinementFor, decideNewMatch } from './sandbox-policy.ts';

export type { CheckLine } from '../referee/compliance.ts';

/** How long `bot check` lets a bot take to start. */
const CHECK_START_TIMEOUT_MS = 30_000;

/** What a confined bot has, for the line that says where a failure may come from. */
const CONFINED =
  'it sees only its own folder, its runtime, a private /tmp and the referee (no network, no other folder)';

/**
 * The compliance run of one bot (built-in or registered, optionally with extra flags), in the sandbox a
 * match would start it in. The first line says whether it runs confined; when a confined bot fails a
 * check, the last line says that the sandbox may be why (the failures carry the bot's own error).
 */
export async function checkBot(
  ctx: AppContext,
  o: { name: string; timeLimitMs: number; noSandbox?: boolean },
  support: () => SandboxSupport = sandboxSupport,
): Promise<Result<CheckLine[]>> {
  const bot = await resolveBot(ctx, o.name);
  if (!bot.ok) return bot;
  const remote = bot.value.source === 'remote';
  const decision = decideNewMatch([bot.value], o.noSandbox === true, support);
  if (!decision.ok) return { ok: true, value: [{ ok: false, what: 'sandbox', detail: decision.reason }] };
  const confined = decision.value.confined && !remote;
  const first: CheckLine = remote
    ? { ok: true, what: 'sandbox', detail: 'a remote bot runs on its own machine, outside the arena\'s sandbox' }
    : confined
      ? { ok: true, what: 'sandbox', detail: `runs confined (bubblewrap): ${CONFINED}` }
      : { ok: true, what: 'sandbox', detail: `runs UNCONFINED: ${decision.value.notice ?? 'no sandbox'}` };
  // Only the checked bot may dial in: a remote bot by its registered token, a spawned one by its own.
  const server = await startArenaServer({ authenticate: admitRemoteBots([bot.value]) });
  try {
    const launcher = launcherFor(bot.value, server, { startTimeoutMs: CHECK_START_TIMEOUT_MS, ...(confined ? { confine: confinementFor(bot.value, ctx) } : {}) });
    const lines = await runCompliance(launcher, ctx.clock, o.timeLimitMs);
    const failed = lines.find((l) => !l.ok);
    const blame: CheckLine[] =
      confined && failed ? [{ ok: false, what: 'sandbox', detail: `the bot failed confined (${failed.what}, reason above); a bot that needs more does not work in a match: ${CONFINED}` }] : [];
    return { ok: true, value: [first, ...lines, ...blame] };
  } finally {
    await server.close();
  }
}
