/**
 * A spawned bot process: in its own process group, under kernel resource limits (bot-limits.ts), tagged
 * and watched (process-sweep.ts, process-watch.ts), with the tail of its stderr kept for crash reasons and
 * all of it, capped, for its owner. kill() takes down everything the bot started — its group, its known
 * descendants, every process with its tag — and lets go of the pipes (stderr once read to its end, at most
 * PIPE_GRACE_MS after the exit), so a leftover holding the bot's stdout or stderr cannot keep the referee
 * waiting. A process-wide 'exit' hook does the same for every bot still alive, so none outlives the referee.
 *
 * A confined bot (confinement.ts) gets none of the referee's environment, only its own, and is started
 * as the confinement's outer command, with an empty environment and the options it hides on fd 3. The
 * limits shell and taskset run inside it, so they bind the bot and not the sandbox. The kernel's own
 * limits on a confined start (its control groups) are read back: a process killed at the memory limit
 * ends the whole bot as `memory`; when the bot is gone, the confinement gets back what the start held.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import type { Readable } from 'node:stream';
import { CappedTextBuilder, type CappedText } from '../../core/capped-text.ts';
import type { BotLimits } from './bot-limits.ts';
import { nodeOptionsFor, resolveExecutable, RLIMITS_ENFORCED, wrapWithLimits } from './bot-limits.ts';
import type { SnapshotStart } from './builtin-bots.ts';
import type { ConfinedStart } from './confinement.ts';
import { wrapWithAffinity } from './cpu-affinity.ts';
import type { CpuMeter } from './cpu-meter.ts';
import { cpuMeter, oncePerTurn } from './cpu-meter.ts';
import type { ExitCause } from './exit-cause.ts';
import { classifyExit, DISK_LINE, FSIZE_LINE, OOM_LINE } from './exit-cause.ts';
import type { Breach, WatchHandle } from './process-watch.ts';
import { watchBot } from './process-watch.ts';
import type { ProcessId } from './process-sweep.ts';
import { ENV_BOT_TAG, killGroup, newLaunchTag, sweepKnown, sweepLaunch, sweepSession } from './process-sweep.ts';
import { processTree, TREE_WALK } from './process-tree.ts';
import { readStat } from './proc-fs.ts';

const TAIL_LINES = 20;
const LINE_CAP = 500;
/** After the bot itself has exited, how long its pipes may stay open (a descendant holding them) before we drop them. */
const PIPE_GRACE_MS = 2000;
/** How often a confined bot's control group is asked whether the kernel killed one of its processes for memory, ms. */
const OOM_POLL_MS = 200;

/** Kill functions of the bots still alive. */
const live = new Set<() => void>();
let hooked = false;

/** Kills every bot still alive and sweeps this referee's tags. For signal handlers; 'exit' calls it too. */
export function killAllBotProcesses(): void {
  for (const kill of [...live]) kill();
  live.clear();
  sweepSession();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killAllBotProcesses);
}

export { describeExit } from './exit-cause.ts';

/** A spawned bot. */
export interface BotProcess {
  readonly child: ChildProcess;
  /** The bot's stdout, the protocol channel of a stdio bot (null in WebSocket mode). */
  readonly output: Readable | null;
  readonly pid: number | undefined;
  /** Resolves with a description once the process has exited (or failed to start). */
  readonly exited: Promise<string>;
  /** Set once exited: how it ended and what verdict that earns. */
  readonly exit: ExitCause | undefined;
  /** The most memory the bot's processes held together at one check, bytes (0 where unwatched). */
  readonly peakMemoryBytes: number;
  /** The last lines of stderr, joined by newlines ('' if none). */
  stderrTail(): string;
  /** Its stderr since the last take, capped (core/capped-text.ts); undefined when it wrote none since. */
  takeStderr(): CappedText | undefined;
  /** Resolves once stderr has been read to its end or let go (at most PIPE_GRACE_MS after the exit). */
  readonly stderrClosed: Promise<void>;
  /**
   * CPU milliseconds the bot's processes have used since it started (see cpu-meter.ts); undefined where
   * there is no /proc and once the bot has exited. Only differences between two reads mean anything.
   */
  cpuMs(): number | undefined;
  /** SIGKILLs the bot and everything it started, and closes our ends of its pipes. Idempotent. */
  kill(): void;
}

/** Options of {@link spawnBot}. */
export interface SpawnBotOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env: Record<string, string>;
  readonly stdio: boolean;
  /** Kernel and watch limits; absent = none (tests of the plumbing itself). */
  readonly limits?: BotLimits;
  /** Pin the bot and everything it starts to these CPUs, through this taskset (see cpu-affinity.ts). */
  readonly affinity?: { readonly cpus: readonly number[]; readonly taskset: string };
  /** Start it inside this confinement (readied by the launcher); absent = with the referee's own rights. */
  readonly confined?: ConfinedStart;
  /** A built-in bot's startup snapshot: its args replace `args` when the bot's NODE_OPTIONS are the snapshot's. */
  readonly startSnapshot?: SnapshotStart;
}

/** Signal names by number, for an outer process that reports a signal as exit code 128 + n. */
const SIGNAL_NAMES = new Map(Object.entries(osConstants.signals).map(([name, n]) => [n, name as NodeJS.Signals]));

/** The exit as the bot's own: a confinement's 128 + n becomes signal n. */
function botExit(code: number | null, signal: NodeJS.Signals | null, confined: boolean): { code: number | null; signal: NodeJS.Signals | null } {
  if (!confined || code === null || code <= 128) return { code, signal };
  const name = SIGNAL_NAMES.get(code - 128);
  return name ? { code: null, signal: name } : { code, signal };
}

/** Spawns `command args` detached (own process group) with the given extra environment. */
export function spawnBot(opts: SpawnBotOptions): BotProcess {
  hookExit();
  const tag = newLaunchTag();
  const limits = opts.limits;
  const confined = opts.confined;
  const env: Record<string, string> = confined ? { ...confined.env } : { ...(process.env as Record<string, string>), ...opts.env, [ENV_BOT_TAG]: tag };
  if (limits) env.NODE_OPTIONS = nodeOptionsFor(limits, env.NODE_OPTIONS);
  // Node refuses a snapshot under other V8 flags (and exits): the plain start then.
  const args = opts.startSnapshot && (env.NODE_OPTIONS ?? '') === opts.startSnapshot.nodeOptions ? opts.startSnapshot.args : opts.args;

  // Inside a confinement, what runs before the bot (the relay) comes first, under the same limits.
  const found = confined ? confined.program : resolveExecutable(opts.command, opts.cwd, env.PATH);
  const resolved = found && confined?.before.length ? confined.before[0] : found;
  const botArgs = found && confined?.before.length ? [...confined.before.slice(1), found, ...args] : args;
  // An unresolvable command is left to spawn, which reports ENOENT/EACCES itself. The shell of the limits
  // execs taskset, which execs the bot: one pid throughout.
  let target = { command: opts.command, args: [...args] };
  if (resolved) {
    const pinned = opts.affinity ? wrapWithAffinity(resolved, botArgs, opts.affinity.cpus, opts.affinity.taskset) : undefined;
    if (limits && RLIMITS_ENFORCED) target = wrapWithLimits(pinned?.command ?? resolved, pinned?.args ?? botArgs, limits);
    else if (pinned) target = pinned;
    else target = { command: resolved, args: [...botArgs] };
  }
  // A confined stdio bot gets its protocol pipe as fd 5, moved to fd 1 by a shell inside the sandbox: bwrap's
  // monitor and its pid-1 init keep their own fds 0-2 (they close every other), so a pipe passed as bwrap's
  // stdout stays open after the bot closes it, and a bot that closed its stdout mid-answer timed out.
  // (fd 3 carries bwrap's options, fd 4 its seccomp filter: bwrap reads both and closes them.)
  const protocolFd = confined && opts.stdio ? 5 : undefined;
  if (protocolFd) target = { command: '/bin/sh', args: ['-c', `exec 1>&${protocolFd} ${protocolFd}>&-; exec "$@"`, 'arena-bot', target.command, ...target.args] };
  let hidden: string[] = [];
  let filter: Buffer | undefined;
  if (confined) {
    const outer = confined.wrap(target, env);
    target = { command: outer.command, args: outer.args };
    hidden = outer.hidden;
    filter = outer.filter;
  }
  const child = spawn(target.command, target.args, {
    cwd: confined ? '/' : opts.cwd,
    env: confined ? {} : env,
    detached: true,
    // In WebSocket mode a bot's stdout is free for its own chatter; nobody reads it, so do not pipe it.
    // A confined start reads its options from fd 3, its seccomp filter, if any, from fd 4; a confined stdio
    // bot's protocol pipe is fd 5.
    stdio: [
      opts.stdio ? 'pipe' : 'ignore',
      opts.stdio && !protocolFd ? 'pipe' : 'ignore',
      'pipe',
      ...(confined ? (['pipe'] as const) : []),
      ...(filter || protocolFd ? ([filter ? 'pipe' : 'ignore'] as const) : []),
      ...(protocolFd ? (['pipe'] as const) : []),
    ],
  });
  const output = (protocolFd ? (child.stdio as unknown as readonly unknown[])[protocolFd] : child.stdout) as Readable | null;
  const pid = child.pid;
  if (confined) {
    const options = child.stdio[3] as NodeJS.WritableStream | null;
    options?.on('error', () => undefined);
    options?.end(hidden.map((a) => `${a}\0`).join(''));
  }
  if (filter) {
    const fd4 = child.stdio[4] as NodeJS.WritableStream | null;
    fd4?.on('error', () => undefined);
    fd4?.end(filter);
  }

  let breach: Breach | undefined;
  let oomLine: string | undefined;
  let fsizeLine: string | undefined;
  let diskLine: string | undefined;
  let killed = false;
  let watch: WatchHandle | undefined;
  let meter: CpuMeter | undefined;

  const lines: string[] = [];
  let partial = '';
  const keep = (line: string): void => {
    if (oomLine === undefined && OOM_LINE.test(line)) oomLine = line.slice(0, LINE_CAP);
    if (fsizeLine === undefined && FSIZE_LINE.test(line)) fsizeLine = line.slice(0, LINE_CAP);
    if (diskLine === undefined && DISK_LINE.test(line)) diskLine = line.slice(0, LINE_CAP);
    lines.push(line.slice(0, LINE_CAP));
  };
  child.stderr?.setEncoding('utf8');
  // Everything it writes, capped, for its owner (issue 32); the lines above only explain a crash.
  const whole = new CappedTextBuilder();
  child.stderr?.on('data', (text: string) => {
    whole.push(text);
    const parts = (partial + text).split('\n');
    partial = parts.pop()!.slice(-LINE_CAP);
    for (const l of parts) keep(l);
    if (lines.length > TAIL_LINES) lines.splice(0, lines.length - TAIL_LINES);
  });
  child.stderr?.on('error', () => undefined);

  const releasePipes = (): void => {
    for (const s of [child.stdin, output, child.stderr]) s?.destroy();
  };
  // stderr is read to its end (or until the grace after exit runs out), so its last words are kept too.
  const stderrClosed = new Promise<void>((resolve) => (child.stderr ? child.stderr.once('close', resolve) : resolve()));

  // A confined bot's processes are its sandbox's tree, found from the root alone (process-tree.ts).
  const rootStart = confined && pid !== undefined ? readStat(pid)?.startTime : undefined;
  const root: ProcessId | undefined = rootStart !== undefined && TREE_WALK ? { pid: pid!, startTime: rootStart } : undefined;

  const kill = (): void => {
    if (killed) return;
    killed = true;
    live.delete(kill);
    if (pid === undefined) return;
    const tree = root ? processTree(root) : [];
    killGroup(pid);
    try {
      child.kill('SIGKILL'); // in case it left its group
    } catch {
      // already reaped
    }
    if (root) sweepKnown([...tree, ...(watch?.members() ?? [])]);
    else sweepLaunch(tag, watch?.members() ?? []);
    watch?.stop();
    for (const s of [child.stdin, output]) s?.destroy();
    // stderr closes once the swept processes are gone, or is let go PIPE_GRACE_MS after the exit.
  };

  // The kernel killed a process of the bot at its control group's memory limit: the whole bot goes, as `memory`.
  const oomKilled = (): boolean => (confined?.kernel.oomKills() ?? 0) > 0;
  const oomPoll = confined && pid !== undefined ? setInterval(() => oomKilled() && kill(), OOM_POLL_MS).unref() : undefined;
  const released = (): void => {
    if (oomPoll) clearInterval(oomPoll);
    confined?.release();
  };

  if (pid !== undefined) {
    live.add(kill);
    if (limits) {
      watch = watchBot({
        tag,
        ...(rootStart !== undefined ? { root: { pid, startTime: rootStart } } : {}),
        memoryBytes: limits.memoryBytes,
        maxProcesses: limits.maxProcesses,
        onBreach: (b) => {
          breach = b;
          kill();
        },
      });
    }
    const own = cpuMeter(pid, () => watch?.members() ?? []);
    meter = own && oncePerTurn(own);
  }

  let exit: ExitCause | undefined;
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (rawCode, rawSignal) => {
      const { code, signal } = botExit(rawCode, rawSignal, confined !== undefined);
      if (partial && oomLine === undefined && OOM_LINE.test(partial)) oomLine = partial;
      if (partial && diskLine === undefined && DISK_LINE.test(partial)) diskLine = partial;
      const cgroupOom = oomKilled();
      // The sandbox's pid namespace ends with its outer process, taking every process of the bot with it;
      // then its uid, control groups and space are given back (its cache written back first).
      released();
      exit = classifyExit({
        code,
        signal,
        ...(cgroupOom ? { cgroupOom } : {}),
        ...(diskLine !== undefined ? { diskLine } : {}),
        ...(confined && limits ? { diskBytes: limits.diskBytes } : {}),
        ...(breach ? { breach } : {}),
        ...(oomLine !== undefined ? { oomLine } : {}),
        ...(fsizeLine !== undefined ? { fsizeLine } : {}),
        ...(limits ? { memoryBytes: limits.memoryBytes, fileBytes: limits.fileBytes } : {}),
        ...(limits?.cpuSeconds !== undefined ? { cpuSeconds: limits.cpuSeconds } : {}),
      });
      // A descendant may still hold the bot's pipes; do not let them keep the referee alive.
      setTimeout(releasePipes, PIPE_GRACE_MS).unref();
      resolve(exit.description);
    });
    child.once('error', (err) => {
      // Spawn failures (ENOENT, EACCES) emit 'error' and possibly never 'exit'.
      exit ??= { description: `could not start: ${err.message}`, clean: false, verdict: 'crash' };
      live.delete(kill);
      released();
      watch?.stop();
      // Nothing ran, so nothing is left to read: stderrClosed must not wait for an exit that never comes.
      child.stderr?.destroy();
      resolve(exit.description);
    });
  });

  return {
    child,
    output,
    pid,
    exited,
    get exit() {
      return exit;
    },
    get peakMemoryBytes() {
      return watch?.peakBytes ?? 0;
    },
    stderrTail: () => [...lines, ...(partial ? [partial] : [])].slice(-TAIL_LINES).join('\n').trimEnd(),
    takeStderr: () => whole.take(),
    stderrClosed,
    cpuMs: () => (exit || killed ? undefined : meter?.read()),
    kill,
  };
}
