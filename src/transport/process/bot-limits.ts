/**
 * Kernel resource limits for bot processes, the way judges cap untrusted code: memory, CPU time as a
 * backstop behind the wall-clock limit, file size, no core dumps. Node cannot call setrlimit(2), so a bot
 * is started through `/bin/sh -c 'ulimit …; exec "$@"'`: the shell sets the limits on itself and then
 * becomes the bot (same pid), and every process the bot starts inherits them.
 *
 * Memory is RLIMIT_DATA, not RLIMIT_AS. Measured on Node 20 (Linux 6.x): under RLIMIT_AS = 1 GiB a Node
 * program could fill only 145 MB before allocations failed, because V8 reserves large address ranges it
 * never touches; under RLIMIT_DATA = 1 GiB it filled 1015 MB. RLIMIT_DATA (Linux ≥ 4.7) counts private
 * writable mappings — heap, malloc'd and mmap'd memory — so it means the same for native programs.
 * Node bots also get a `--max-old-space-size` below the limit in NODE_OPTIONS: without it V8 does not
 * know the limit, and a bot near it died of SIGSEGV with no message; with it V8 collects harder and, when
 * the live heap truly does not fit, stops with "JavaScript heap out of memory", which is recognisable.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/** Limits for one bot (all of its processes). */
export interface BotLimits {
  /**
   * Bytes. Each process's RLIMIT_DATA, and the most resident memory the bot's processes may hold together
   * (checked by the process watch, since rlimits are per process).
   */
  readonly memoryBytes: number;
  /** CPU seconds per process (RLIMIT_CPU, then SIGXCPU); absent = none. A backstop, see {@link cpuBackstopSeconds}. */
  readonly cpuSeconds?: number;
  /** Largest file a bot may write, bytes (RLIMIT_FSIZE, then SIGXFSZ). */
  readonly fileBytes: number;
  /** Most processes a bot may have alive at once (a fork bomb is killed at the next check). */
  readonly maxProcesses: number;
  /** Bytes a bot may write in all (its scratch and its persistent cache together): its disk budget. */
  readonly diskBytes: number;
}

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** The most a default memory limit gives one bot, whatever the machine. */
export const DEFAULT_MEMORY_CAP = 2 * GIB;
/** Default RLIMIT_FSIZE: pattern databases and logs fit; filling the disk does not. */
export const DEFAULT_FILE_BYTES = 1 * GIB;
/** Default disk budget of one bot: scratch and persistent cache together. */
export const DEFAULT_DISK_BYTES = 256 * MIB;
/** Default process cap: a worker pool per core fits many times over; a fork bomb does not. */
export const DEFAULT_MAX_PROCESSES = 128;
/** The smallest memory limit accepted: below this even `sh` cannot start. */
export const MIN_MEMORY_BYTES = 16 * MIB;

/** A quarter of the machine's memory (or of the cgroup's limit, when lower), at most 2 GiB. */
export function defaultMemoryLimit(): number {
  let machine = totalmem();
  const constrained = typeof process.constrainedMemory === 'function' ? process.constrainedMemory() : 0;
  if (constrained && constrained > 0 && constrained < machine) machine = constrained;
  return Math.max(MIN_MEMORY_BYTES, Math.min(DEFAULT_MEMORY_CAP, Math.floor(machine / 4)));
}

/**
 * A CPU-time backstop that no honest bot reaches: every core busy for every one of its scrambles' time
 * limits, plus a minute of start-up. It matters for what the wall clock cannot see: a descendant that
 * escaped every kill still stops after burning this much. The machine's cores, not this process's
 * affinity: a referee pinned to its own core (launch/cores.ts) must not shrink its bots' backstop, and a
 * local match and a worker on the same machine give the same one.
 */
export function cpuBackstopSeconds(timeLimitMs: number, scrambles: number): number {
  return Math.ceil((Math.max(1, cpus().length) * timeLimitMs * Math.max(1, scrambles)) / 1000) + START_UP_CPU_SECONDS;
}

/**
 * The start-up part of {@link cpuBackstopSeconds}. A bot kept running for another game (its hello said
 * `reuse`) is kept only while its processes have used no more than this: the rest of its backstop then
 * still covers every core busy for every scramble's whole time limit, as a fresh start's does.
 */
export const START_UP_CPU_SECONDS = 60;

/** Fills in the defaults. */
export function resolveLimits(partial: Partial<BotLimits> = {}): BotLimits {
  return {
    memoryBytes: partial.memoryBytes ?? defaultMemoryLimit(),
    fileBytes: partial.fileBytes ?? DEFAULT_FILE_BYTES,
    maxProcesses: partial.maxProcesses ?? DEFAULT_MAX_PROCESSES,
    diskBytes: partial.diskBytes ?? DEFAULT_DISK_BYTES,
    ...(partial.cpuSeconds !== undefined ? { cpuSeconds: partial.cpuSeconds } : {}),
  };
}

/** True where the limits are enforced by the kernel (Linux); elsewhere they are not applied. */
export const RLIMITS_ENFORCED = process.platform === 'linux';

/** Said once by the CLI where {@link RLIMITS_ENFORCED} is false. */
export const RLIMITS_NOTE = `note: bot memory, CPU and file limits are enforced on Linux only; on ${process.platform} bots run without them`;

/** "1.5 GiB", "256 MiB": the unit the CLI flag takes. */
export function formatSize(bytes: number): string {
  if (bytes >= GIB) return `${+(bytes / GIB).toFixed(2)} GiB`;
  if (bytes >= MIB) return `${+(bytes / MIB).toFixed(1)} MiB`;
  return `${Math.round(bytes / 1024)} KiB`;
}

/**
 * The absolute path of `command` as spawn would run it (a PATH lookup when it has no slash), or undefined
 * when there is no such executable file. Resolved before the shell wrapper, so "not found" is reported as
 * such and not as the shell's exit code 127.
 */
export function resolveExecutable(command: string, cwd: string | undefined, path = process.env.PATH ?? ''): string | undefined {
  const runnable = (file: string): boolean => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) {
    const file = isAbsolute(command) ? command : resolve(cwd ?? process.cwd(), command);
    return runnable(file) ? file : undefined;
  }
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const file = resolve(cwd ?? process.cwd(), join(dir, command));
    if (runnable(file)) return file;
  }
  return undefined;
}

/**
 * `command args` wrapped so the kernel enforces `limits`. Hard and soft limits are set together, so the bot
 * cannot raise them again (unless it runs as root); CPU gets SIGXCPU at the soft limit and SIGKILL 5 s later.
 * The shell's own errors (a hard limit already lower than asked) go to the bot's stderr and the lower
 * limit stays in force.
 */
export function wrapWithLimits(command: string, args: readonly string[], limits: BotLimits): { command: string; args: string[] } {
  const lines = [
    'ulimit -c 0',
    `ulimit -d ${Math.max(1, Math.floor(limits.memoryBytes / 1024))}`,
    // POSIX ulimit -f counts 512-byte blocks (dash, busybox, bash as sh).
    `ulimit -f ${Math.max(1, Math.floor(limits.fileBytes / 512))}`,
    ...(limits.cpuSeconds !== undefined ? [`ulimit -S -t ${Math.max(1, Math.ceil(limits.cpuSeconds))}`, `ulimit -H -t ${Math.ceil(limits.cpuSeconds) + 5}`] : []),
    'exec "$@"',
  ];
  return { command: '/bin/sh', args: ['-c', lines.join('; '), 'arena-bot', command, ...args] };
}

/**
 * NODE_OPTIONS for a bot under `limits`: the caller's own options plus a V8 heap size that leaves room
 * for what is not heap (thread stacks, which RLIMIT_DATA counts, code, buffers, native allocations):
 * 3/4 of the limit, and at least 192 MiB below it. Kept unless the options already choose a heap size.
 */
export function nodeOptionsFor(limits: BotLimits, current: string | undefined): string {
  const own = current ?? '';
  if (/--max-old-space-size/.test(own)) return own;
  const heapMiB = Math.max(16, Math.floor(Math.min(limits.memoryBytes * 0.75, limits.memoryBytes - 192 * MIB) / MIB));
  return `${own} --max-old-space-size=${heapMiB}`.trim();
}
