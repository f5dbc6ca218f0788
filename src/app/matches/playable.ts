/**
 * The check before a distributed match is queued: the bots are started here once, on the machine that
 * queues it, to read what they declare, so a match no bot can play is refused before its scrambles are
 * generated and stored (a local match does the same inside its own run, see matches.ts). A bot that cannot
 * start here may still start on the workers: it is not held against the match.
 *
 * The bots start here exactly as a local match would start them: inside the sandbox, by the same policy
 * (sandbox-policy.ts). When this machine cannot confine a bot that must be confined, it is not started here
 * at all (the workers confine it, or refuse it): a registered bot's code never runs unconfined because a
 * match was queued.
 */
import type { PuzzleState, Result } from '../../core/types.ts';
import type { MatchConfig } from '../../referee/match-config.ts';
import { withPreflight, type Decline } from '../../referee/preflight.ts';
import { startArenaServer } from '../../transport/ws-server.ts';
import { resolveBot } from '../bots/bot-registry.ts';
import type { AppContext } from '../context.ts';
import { launchBot } from '../launch/launch-bot.ts';
import { launchPlanOf } from '../launch/launch-plan.ts';
import { sandboxOfMatch } from '../launch/sandbox-policy.ts';

/** The warning line for a bot that declines part of a match. */
export function declineNotice(d: Decline): string {
  return `warning: ${d.bot} declines ${d.puzzleClass} (${d.reason}); its scrambles of that class are recorded unsupported`;
}

/** Refuses a match no bot can play; otherwise tells `notice` which bot declines which class. */
export async function checkPlayable(ctx: AppContext, config: MatchConfig, states: readonly PuzzleState[] | undefined, notice?: (text: string) => void): Promise<Result<void>> {
  // Only bots spawned here dial this server, each with its own one-time token.
  const server = await startArenaServer({ host: '127.0.0.1', port: 0, authenticate: () => undefined });
  try {
    const resolved = new Map<string, Awaited<ReturnType<typeof resolveBot>>>();
    for (const b of config.bots) resolved.set(b, await resolveBot(ctx, b));
    const known = [...resolved.values()].flatMap((r) => (r.ok ? [r.value] : []));
    const sandbox = sandboxOfMatch(ctx, config, known, { new: true });
    if (!sandbox.ok) {
      notice?.(`note: the bots were not started before queuing (${sandbox.reason}); the workers check them`);
      return { ok: true, value: undefined };
    }
    const site = { server, ctx, prepared: sandbox.value.confine };
    // The launch plan of the match's jobs, as a local match and the workers derive it (its config as decided here).
    return await withPreflight(
      sandbox.value.config,
      states,
      (bot, opts) => {
        const r = resolved.get(bot)!;
        if (!r.ok) return { name: bot, connect: async () => r, dispose: async () => undefined };
        return launchBot(r.value, launchPlanOf(opts), site);
      },
      (d) => notice?.(declineNotice(d)),
      async () => ({ ok: true, value: undefined }),
    );
  } finally {
    await server.close();
  }
}
