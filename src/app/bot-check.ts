import type { Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import { checkBot as runCompliance, type CheckLine } from '../referee/compliance.ts';
import { machineLimits, sandboxSupport, type SandboxSupport } from '../sandbox/probe.ts';
import { startArenaServer, type ArenaServer } from '../transport/ws-server.ts';
import { admitRemoteBots } from './admission.ts';
import { resolveBot } from './bot-registry.ts';
import type { AppContext } from './context.ts';
import { launcherFor } from './launchers.ts';
import { listenNotice, type ListenAddress } from './listen.ts';
import { confinementFor, decideNewMatch } from './sandbox-policy.ts';

export type { CheckLine } from '../referee/compliance.ts';

/** How long `bot check` lets a bot it starts take to say hello, unless told otherwise. */
export const CHECK_START_WAIT_MS = 30_000;
/** How long it waits for a remote bot to dial in, unless told otherwise: time to start it on another machine. */
export const CHECK_REMOTE_WAIT_MS = 5 * 60_000;

/** What `bot check` is asked to do. */
export interface CheckOptions {
  /** Bot name (built-in or registered), optionally with flags. */
  readonly name: string;
  /** Per request. */
  readonly timeLimitMs: number;
  /** Where a remote bot dials in; default a free port on 127.0.0.1. */
  readonly listen?: ListenAddress;
  /** How long the bot may take to start (a bot the arena starts) or to dial in (a remote bot). */
  readonly waitMs?: number;
  /** Run it unconfined, with the user's own rights (by default it runs in the sandbox a match gives it). */
  readonly noSandbox?: boolean;
  /** What the person running the check must know before it can go on (where a remote bot dials). */
  notice?(text: string): void;
}

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

/** What a confined bot has, for the line that says where a failure may come from. */
const CONFINED =
  'it sees only its own folder, its runtime, a private /tmp and the referee (no network, no other folder)';

/**
 * The compliance run of one bot (built-in or registered, optionally with extra flags), in the sandbox a
 * match would start it in. The first line says whether it runs confined; when a confined bot fails a
 * check, the last line says that the sandbox may be why (the failures carry the bot's own error).
 */
export async function checkBot(ctx: AppContext, o: CheckOptions, support: () => SandboxSupport = sandboxSupport): Promise<Result<CheckLine[]>> {
  const bot = await resolveBot(ctx, o.name);
  if (!bot.ok) return bot;
  const remote = bot.value.source === 'remote';
  const waitMs = o.waitMs ?? (remote ? CHECK_REMOTE_WAIT_MS : CHECK_START_WAIT_MS);
  const decision = decideNewMatch([bot.value], o.noSandbox === true, support);
  if (!decision.ok) return { ok: true, value: [{ ok: false, what: 'sandbox', detail: decision.reason }] };
  const confined = decision.value.confined && !remote;
  const first: CheckLine = remote
    ? { ok: true, what: 'sandbox', detail: 'a remote bot runs on its own machine, outside the arena\'s sandbox' }
    : confined
      ? { ok: true, what: 'sandbox', detail: `runs confined (bubblewrap): ${CONFINED}` }
      : { ok: true, what: 'sandbox', detail: `runs UNCONFINED: ${decision.value.notice ?? 'no sandbox'}` };
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
    if (remote) o.notice?.(dialNotice(bot.value.name, server, o.listen, waitMs));
    // What the sandbox cannot have the kernel enforce on this machine (nothing, as root with control groups).
    if (confined) for (const gap of machineLimits().open) o.notice?.(`note: not enforced by the kernel here: ${gap}`);
    const launcher = launcherFor(bot.value, server, { startTimeoutMs: waitMs, ...(confined ? { confine: confinementFor(bot.value, ctx) } : {}) });
    const lines = await runCompliance(launcher, ctx.clock, o.timeLimitMs);
    const failed = lines.find((l) => !l.ok);
    const blame: CheckLine[] =
      confined && failed ? [{ ok: false, what: 'sandbox', detail: `the bot failed confined (${failed.what}, reason above); a bot that needs more does not work in a match: ${CONFINED}` }] : [];
    return { ok: true, value: [first, ...lines, ...blame] };
  } finally {
    await server.close();
  }
}
