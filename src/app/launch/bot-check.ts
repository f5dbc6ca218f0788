/**
 * `bot check`: the compliance run of one bot, started by the one launcher from the launch plan a match
 * with the same settings would give it (confined unless told otherwise). One bug is reported once (a bot
 * that breaks every request the same way is one problem, not one per request), a rule a failure breaks is
 * named, and the sandbox is never blamed for a failure it did not cause: when a confined bot fails, the
 * report says how to tell (the same check with --no-sandbox), since starting a registered bot unconfined
 * to find out is the user's call, never the arena's.
 */
import type { Result } from '../../core/types.ts';
import type { BotLauncher } from '../../protocol/link.ts';
import type { Capability } from '../../protocol/messages.ts';
import { reject } from '../../core/types.ts';
import { allPuzzles } from '../../puzzles/index.ts';
import { runCompliance, type CheckLine } from '../../referee/compliance.ts';
import type { PlaySettings } from '../../referee/settings/stored-settings.ts';
import { MATCH_DEFAULTS } from '../../referee/settings/match-settings.ts';
import { machineLimits, sandboxSupport, type SandboxSupport } from '../../sandbox/probe.ts';
import { startArenaServer, type ArenaServer } from '../../transport/ws-server.ts';
import { admitRemoteBots } from './admission.ts';
import { resolveBot, type ResolvedBot } from '../bots/bot-registry.ts';
import type { AppContext } from '../context.ts';
import { collapseRepeats } from './check-lines.ts';
import { launchBot } from './launch-bot.ts';
import { launchPlanOf } from './launch-plan.ts';
import { listenNotice, type ListenAddress } from '../listen.ts';
import { decideNewMatch } from './sandbox-policy.ts';
import { isOwnedName } from '../bots/bot-owner.ts';
import { botAssetNotices } from '../bots/bot-assets.ts';

export type { CheckLine } from '../../referee/compliance.ts';

/** How long it waits for a remote bot to dial in, unless told otherwise: time to start it on another machine. */
export const CHECK_REMOTE_WAIT_MS = 5 * 60_000;

/** What `bot check` is asked to do. */
export interface CheckOptions {
  /** Bot name (built-in or registered), optionally with flags. */
  readonly name: string;
  /** The settings a check takes (the schema's, COMMAND_SETTINGS['bot check']): time limit, memory, disk, sandbox. */
  readonly settings: PlaySettings;
  /** Where a remote bot dials in; default a free port on 127.0.0.1. */
  readonly listen?: ListenAddress;
  /** How long the bot may take to start (default: a match's start timeout) or to dial in (a remote bot, default 5m). */
  readonly waitMs?: number;
  /** What the person running the check must know before it can go on (where a remote bot dials). */
  notice?(text: string): void;
}

/** What a check found. */
export interface CheckReport {
  /** How the bot ran: confined (and what it sees), unconfined and why, or remote. */
  readonly sandbox: string;
  /** The checks, each failure once (repeats of one failure folded into its first line). */
  readonly lines: readonly CheckLine[];
  /** Failed lines: distinct problems. */
  readonly problems: number;
  /** What to do next when something failed (how to tell whether the sandbox is why). */
  readonly hint?: string;
  /** What the bot declared in its first `hello` (absent when it never said hello): the ladder reads its classes from it. */
  readonly capabilities?: readonly Capability[];
}

/**
 * Scrambles a compliance run sends at most (every kind's fixed instances and tiny specs, and the cancel
 * pair): what its bot's CPU-time backstop covers, as a match's covers the match's scrambles.
 */
const COMPLIANCE_SCRAMBLES = allPuzzles().reduce((n, p) => n + p.compliance.fixed.length + p.compliance.specs.length, 2);

/** "5m", "30s", "1500ms": a wait as a person would write it. */
export function formatWait(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/**
 * Where and how a remote bot dials in, said before the check waits for it. Its long-lived token cannot be
 * printed: only its hash is stored, so the line names the one `arena bot add --remote` printed.
 */
export function dialNotice(name: string, server: Pick<ArenaServer, 'url'>, listen: ListenAddress | undefined, waitMs: number): string {
  const anyAddress = listen !== undefined && (listen.host === '0.0.0.0' || listen.host === '::');
  const where = anyAddress ? `${server.url} (from another machine: this machine's address in place of ${listen.host})` : server.url;
  return (
    `waiting up to ${formatWait(waitMs)} for remote bot ${name} to dial ${where}\n` +
    `  with the token \`arena bot add ${name} --remote\` printed, as "Authorization: Bearer <token>" (or ?token=<token>),\n` +
    `  e.g. ARENA_URL=${server.url} ARENA_TOKEN=<token> <the bot's command>`
  );
}

/** What a confined bot has, for the line that says how it runs. */
const CONFINED = 'it sees only its own folder, its runtime, a private /tmp and the referee (no network, no other folder)';

/** The rule a failure breaks, when the bot's own output says which (text on a stdio bot's stdout). */
function ruleOf(bot: ResolvedBot, line: CheckLine): CheckLine {
  if (line.ok || !bot.stdio || !/not JSON/.test(line.detail)) return line;
  return { ...line, detail: `${line.detail} — stdout is the protocol; log to stderr` };
}

/** The hint after a failed check: confined, how to tell whether the sandbox is why; unconfined, none. */
function hintOf(bot: ResolvedBot, confined: boolean, failed: boolean): string | undefined {
  // A participant's bot never runs unconfined: no hint that would have an admin try it so.
  if (!failed || !confined || isOwnedName(bot.name)) return undefined;
  return (
    `it ran confined: ${CONFINED}. If \`arena bot check ${bot.name.includes(' ') ? `"${bot.name}"` : bot.name} --no-sandbox\` ` +
    'passes (it runs the bot with your own rights), the sandbox is why: the bot needs more than a match gives it'
  );
}

/**
 * The compliance run of one bot (built-in or registered, optionally with extra flags), started as a match
 * with the same settings starts it (the same launch plan, the same sandbox policy).
 */
export async function checkBot(ctx: AppContext, o: CheckOptions, support: () => SandboxSupport = sandboxSupport): Promise<Result<CheckReport>> {
  const bot = await resolveBot(ctx, o.name);
  if (!bot.ok) return bot;
  // Before it starts: a built-in bot whose prepared tables are missing here (any class: a check is of the
  // whole bot), and the command that builds them. It is checked all the same; it only plays slower.
  for (const line of botAssetNotices(ctx.projectRoot, [bot.value.name])) o.notice?.(line);
  const remote = bot.value.source === 'remote';
  const decision = decideNewMatch([bot.value], o.settings.unconfined === true, support);
  if (!decision.ok) return { ok: true, value: { sandbox: 'not started', lines: [{ ok: false, what: 'sandbox', detail: decision.reason }], problems: 1 } };
  const confined = decision.value.confined && !remote;
  const timeLimitMs = o.settings.timeLimitMs ?? MATCH_DEFAULTS.timeLimitMs;
  const wait = o.waitMs ?? (remote ? CHECK_REMOTE_WAIT_MS : undefined);
  const plan = launchPlanOf({ ...o.settings, timeLimitMs, scrambleCount: COMPLIANCE_SCRAMBLES, unconfined: !confined }, wait !== undefined ? { startTimeoutMs: wait } : {});
  const sandbox = remote
    ? "remote: it runs on its own machine, outside the arena's sandbox"
    : confined
      ? `confined (bubblewrap): ${CONFINED}`
      : `UNCONFINED: ${decision.value.notice ?? 'no sandbox'}`;
  // Only the checked bot may dial in: a remote bot by its registered token, a spawned one by its own.
  let server: ArenaServer;
  try {
    server = await startArenaServer({ ...(o.listen ?? {}), authenticate: admitRemoteBots([bot.value]) });
  } catch (e) {
    const at = o.listen ? `${o.listen.host}:${o.listen.port}` : '127.0.0.1';
    return reject('listen', `cannot listen on ${at}: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    const exposed = listenNotice(o.listen, server.url, remote ? [bot.value.name] : []);
    if (exposed) o.notice?.(exposed);
    if (remote) o.notice?.(dialNotice(bot.value.name, server, o.listen, plan.startTimeoutMs));
    // What the sandbox cannot have the kernel enforce on this machine (nothing, as root with control groups).
    if (confined) for (const gap of machineLimits().open) o.notice?.(`note: not enforced by the kernel here: ${gap}`);
    const launcher = launchBot(bot.value, plan, { server, ctx });
    // The first hello is kept, so that a caller who needs the bot's classes need not start it again.
    let capabilities: readonly Capability[] | undefined;
    const kept: BotLauncher = {
      ...launcher,
      connect: async () => {
        const got = await launcher.connect();
        if (got.ok) capabilities ??= got.value.hello.capabilities;
        return got;
      },
      dispose: () => launcher.dispose(),
    };
    const lines = collapseRepeats((await runCompliance(kept, ctx.clock, timeLimitMs)).map((l) => ruleOf(bot.value, l)));
    const problems = lines.filter((l) => !l.ok).length;
    const hint = hintOf(bot.value, confined, problems > 0);
    return { ok: true, value: { sandbox, lines, problems, ...(hint ? { hint } : {}), ...(capabilities ? { capabilities } : {}) } };
  } finally {
    await server.close();
  }
}
