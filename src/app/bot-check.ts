import type { Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import { checkBot as runCompliance, type CheckLine } from '../referee/compliance.ts';
import { startArenaServer, type ArenaServer } from '../transport/ws-server.ts';
import { admitRemoteBots } from './admission.ts';
import { resolveBot } from './bot-registry.ts';
import type { AppContext } from './context.ts';
import { launcherFor } from './launchers.ts';
import { listenNotice, type ListenAddress } from './listen.ts';

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

/** The compliance run of one bot (built-in or registered, optionally with extra flags). */
export async function checkBot(ctx: AppContext, o: CheckOptions): Promise<Result<CheckLine[]>> {
  const bot = await resolveBot(ctx, o.name);
  if (!bot.ok) return bot;
  const remote = bot.value.source === 'remote';
  const waitMs = o.waitMs ?? (remote ? CHECK_REMOTE_WAIT_MS : CHECK_START_WAIT_MS);
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
    const launcher = launcherFor(bot.value, server, { startTimeoutMs: waitMs });
    return { ok: true, value: await runCompliance(launcher, ctx.clock, o.timeLimitMs) };
  } finally {
    await server.close();
  }
}
