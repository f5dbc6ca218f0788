/**
 * Launches a bot program as a child process and hands back its handshaken link. Each start gets a fresh
 * one-time token, so a bot can only ever claim the slot it was spawned for. With a confinement, a
 * WebSocket bot dials the same ws://127.0.0.1:<port>/ inside its sandbox, and reaches the server through a
 * channel of its own (ws-channels.ts), closed when the bot is gone.
 */
import { randomUUID } from 'node:crypto';
import { joinCapped, NO_TEXT, type CappedText } from '../../core/capped-text.ts';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import type { BotLauncher, BotLink } from '../../protocol/link.ts';
import { ENV_STDIO, ENV_TOKEN, ENV_URL } from '../../protocol/messages.ts';
import type { BotLimits } from './bot-limits.ts';
import { resolveLimits } from './bot-limits.ts';
import type { BotProcess } from './bot-process.ts';
import type { SnapshotStart } from './builtin-bots.ts';
import type { ConfinedStart, Confinement } from './confinement.ts';
import { spawnBot } from './bot-process.ts';
import { processLink } from '../process-link.ts';
import { openStdioLink } from '../stdio-link.ts';
import { newToken } from '../tokens.ts';
import type { ArenaServer, Channel } from '../ws-server.ts';

/** Options of {@link createProcessLauncher}. */
export interface ProcessLauncherOptions {
  /** The bot's name (built-in or registry name). */
  readonly name: string;
  readonly command: string;
  readonly args: string[];
  readonly cwd?: string;
  /** Extra environment: on top of the referee's own, or, confined, of nothing but the protocol's variables. */
  readonly env?: Record<string, string>;
  /** The server the bot dials (unused in stdio mode, where handshake limits come from it anyway). */
  readonly server: ArenaServer;
  /** Speak newline-delimited JSON over stdin/stdout instead of WebSocket. */
  readonly stdio?: boolean;
  /** Time from spawn to a completed hello; default 20 s (tsx start-up on a busy machine is slow). */
  readonly startTimeoutMs?: number;
  /** Resource limits of every start; unset fields get the defaults of bot-limits.ts. */
  readonly limits?: Partial<BotLimits>;
  /** Pin every start to these CPUs through this taskset (cpu-affinity.ts's affinitySupport finds it). */
  readonly affinity?: { readonly cpus: readonly number[]; readonly taskset: string };
  /** Start every instance inside this confinement (src/sandbox); absent = with the referee's own rights. */
  readonly confine?: Confinement;
  /**
   * Whether a failed start's or a crash's reason carries the last lines of the bot's stderr (default true).
   * Reasons are stored with results, which everyone may read; a participant's bot's stderr is its owner's
   * alone (kept apart: BotLink.takeStderr), so its reasons go without it.
   */
  readonly stderrInReasons?: boolean;
  /** A built-in bot's startup snapshot (builtin-bots.ts), taken when the start's NODE_OPTIONS are its own. */
  readonly startSnapshot?: SnapshotStart;
}

function withTail(reason: string, proc: BotProcess, stderrInReasons: boolean): string {
  const tail = stderrInReasons ? proc.stderrTail() : '';
  return tail ? `${reason}; stderr:\n${tail}` : reason;
}

/** A launcher that spawns `command args`; connect() kills any previous instance first. */
export function createProcessLauncher(opts: ProcessLauncherOptions): BotLauncher {
  const startTimeoutMs = opts.startTimeoutMs ?? 20_000;
  const limits = resolveLimits(opts.limits);
  const tails = opts.stderrInReasons !== false;
  // Stderr of the starts that failed: often the one thing that says why (a syntax error, a missing module).
  let failedStderr: CappedText | undefined;
  const keepFailed = async (proc: BotProcess): Promise<void> => {
    await proc.stderrClosed;
    const text = proc.takeStderr();
    if (text) failedStderr = joinCapped(failedStderr ?? NO_TEXT, text);
  };
  const running = new Set<{ proc: BotProcess; link?: BotLink }>();
  let disposed = false;

  const stopAll = async (): Promise<void> => {
    const all = [...running];
    running.clear();
    await Promise.all(all.map(async (r) => (r.link ? r.link.close('bot restarted or disposed') : r.proc.kill())));
  };

  const start = async (): Promise<Result<BotLink>> => {
    const token = newToken();
    const identity = `${opts.name}#${randomUUID()}`;
    const stdio = opts.stdio === true;
    const env: Record<string, string> = { ...opts.env };
    const confine = opts.confine;
    if (stdio) env[ENV_STDIO] = '1';
    // Inside a sandbox the relay listens on the loopback, whatever address the server itself has.
    else Object.assign(env, { [ENV_URL]: confine ? `ws://127.0.0.1:${opts.server.port}/` : opts.server.url, [ENV_TOKEN]: token });

    let channel: Channel | undefined;
    let confined: ConfinedStart | undefined;
    if (confine) {
      channel = stdio ? undefined : await opts.server.openChannel(identity);
      const start = { name: opts.name, memoryBytes: limits.memoryBytes, diskBytes: limits.diskBytes, ...(opts.affinity ? { cpus: opts.affinity.cpus } : {}) };
      const request = { command: opts.command, args: opts.args, env, start, ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}) };
      const ready = confine.prepare(channel ? { ...request, channel: { socket: channel.socket, port: opts.server.port } } : request);
      if (!ready.ok) {
        channel?.close();
        return reject('sandbox', `bot ${opts.name} cannot start in the sandbox: ${ready.reason}`);
      }
      confined = ready.value;
    }

    const revoke = stdio ? () => undefined : opts.server.allowToken(token, identity);
    const abort = new AbortController();
    const waiting = stdio ? undefined : opts.server.waitForBot(identity, startTimeoutMs, abort.signal);
    const proc = spawnBot({
      command: opts.command,
      args: opts.args,
      cwd: opts.cwd,
      env,
      stdio,
      limits,
      ...(opts.affinity ? { affinity: opts.affinity } : {}),
      ...(confined ? { confined } : {}),
      ...(opts.startSnapshot ? { startSnapshot: opts.startSnapshot } : {}),
    });
    void proc.exited.then(() => channel?.close());
    const entry: { proc: BotProcess; link?: BotLink } = { proc };
    running.add(entry);

    const handshake: Promise<Result<BotLink>> = stdio
      ? openStdioLink(
          { input: proc.child.stdin!, output: proc.output! },
          { session: randomUUID(), maxPayload: opts.server.maxPayload, handshakeTimeoutMs: startTimeoutMs },
        ).then((o) => (o.ok ? ok(o.link) : reject(o.code, `bot ${opts.name} failed the handshake: ${o.reason}`)))
      : waiting!;
    const died = proc.exited.then((how) => ({ died: how }));
    const first = await Promise.race([handshake, died]);
    abort.abort();
    revoke();

    if ('died' in first) {
      running.delete(entry);
      // Give stderr a moment to drain: the crash reason is usually its last line.
      await new Promise((r) => setTimeout(r, 50));
      proc.kill();
      await keepFailed(proc);
      return reject(proc.exit?.verdict === 'memory' ? 'memory' : 'exited', withTail(`bot ${opts.name} ${first.died} before completing the handshake`, proc, tails));
    }
    if (!first.ok) {
      running.delete(entry);
      proc.kill();
      await keepFailed(proc);
      return reject(first.code, withTail(first.reason, proc, tails));
    }
    const link = processLink(first.value, proc, { stderrInReasons: tails });
    entry.link = link;
    link.onEvent((e) => {
      if (e.type === 'closed') running.delete(entry);
    });
    return ok(link);
  };

  return {
    name: opts.name,
    async connect() {
      if (disposed) return reject('disposed', `launcher for ${opts.name} was disposed`);
      await stopAll();
      return start();
    },
    async dispose() {
      disposed = true;
      await stopAll();
    },
    takeStderr() {
      const text = failedStderr;
      failedStderr = undefined;
      return text;
    },
  };
}
