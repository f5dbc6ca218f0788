/**
 * What a bot process's end earns: `memory` when it outgrew its memory limit, `timeout` when it used up its
 * CPU-time backstop, otherwise `crash` — with a one-line description for the verdict's reason.
 *
 * RLIMIT_DATA does not kill: the allocation that would cross it fails, and the program's runtime then dies
 * its own way (V8 "heap out of memory", Python MemoryError, std::bad_alloc, a Rust or Go abort). So a
 * non-zero exit whose stderr carries one of those messages counts as `memory`. A bot could print such a
 * line on purpose; it would only trade one losing verdict for another.
 */
import type { Verdict } from '../../core/verdict.ts';
import type { Breach } from './process-watch.ts';
import { formatSize } from './bot-limits.ts';

/** Out-of-memory messages of common runtimes (V8, Python, C++, Rust, Go, JVM, .NET, libc). */
export const OOM_LINE =
  /JavaScript heap out of memory|Array buffer allocation failed|Allocation failed - process out of memory|MemoryError|std::bad_alloc|memory allocation of \d+ bytes failed|fatal error: (runtime: )?out of memory|runtime: out of memory|OutOfMemoryError|OutOfMemoryException|Cannot allocate memory|out of memory/i;

/**
 * Write failures at RLIMIT_FSIZE. Programs that ignore SIGXFSZ (Node does) see EFBIG instead of dying
 * of the signal, and usually die of the error.
 */
export const FSIZE_LINE = /EFBIG|File too large/i;

/** Write failures once a confined bot's scratch and cache are full (its disk budget, a tmpfs of that size). */
export const DISK_LINE = /ENOSPC|No space left on device/i;

/** How a bot process ended, as the referee charges it. */
export interface ExitCause {
  readonly description: string;
  /** Exit code 0 (a bot that left on `bye`). */
  readonly clean: boolean;
  readonly verdict: Extract<Verdict, 'crash' | 'memory' | 'timeout'>;
}

/** How a process ended: "exited with code 3" / "killed by signal SIGKILL". */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by signal ${signal}` : `exited with code ${code}`;
}

/**
 * Classifies one exit. `oomLine` and `fsizeLine` are the first stderr lines that matched {@link OOM_LINE}
 * and {@link FSIZE_LINE}, if any.
 */
export function classifyExit(exit: {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly breach?: Breach;
  readonly oomLine?: string;
  readonly fsizeLine?: string;
  /** The first stderr line that matched {@link DISK_LINE}, for a confined bot (whose budget is `diskBytes`). */
  readonly diskLine?: string;
  readonly diskBytes?: number;
  /** The kernel killed a process of the bot at its control group's memory limit. */
  readonly cgroupOom?: boolean;
  readonly memoryBytes?: number;
  readonly cpuSeconds?: number;
  readonly fileBytes?: number;
}): ExitCause {
  const how = describeExit(exit.code, exit.signal);
  const clean = exit.code === 0 && exit.signal === null;
  const b = exit.breach;
  if (b?.kind === 'memory') {
    return { verdict: 'memory', clean, description: `used ${formatSize(b.usedBytes)}, over its memory limit of ${formatSize(b.limitBytes)} (killed)` };
  }
  if (exit.cgroupOom) {
    const limit = exit.memoryBytes !== undefined ? ` of ${formatSize(exit.memoryBytes)}` : '';
    return { verdict: 'memory', clean, description: `killed by the kernel at its memory limit${limit} (its control group counts heap, shared memory, memfd and tmpfs files) (${how})` };
  }
  if (b?.kind === 'processes') {
    return { verdict: 'crash', clean, description: `had ${b.count} processes, over the limit of ${b.limit} (killed)` };
  }
  if (exit.signal === 'SIGXCPU') {
    const limit = exit.cpuSeconds !== undefined ? ` of ${Math.ceil(exit.cpuSeconds)} s` : '';
    return { verdict: 'timeout', clean, description: `used up its CPU-time limit${limit} (${how})` };
  }
  if (exit.signal === 'SIGXFSZ' || (!clean && exit.fsizeLine !== undefined)) {
    const limit = exit.fileBytes !== undefined ? ` of ${formatSize(exit.fileBytes)}` : '';
    return { verdict: 'crash', clean, description: `wrote past the file-size limit${limit} (${how})` };
  }
  if (!clean && exit.diskLine !== undefined && exit.diskBytes !== undefined) {
    return { verdict: 'crash', clean, description: `filled its disk budget of ${formatSize(exit.diskBytes)} (scratch and cache together) (${how}): ${exit.diskLine.trim().slice(0, 200)}` };
  }
  if (!clean && exit.oomLine !== undefined) {
    const limit = exit.memoryBytes !== undefined ? ` under its memory limit of ${formatSize(exit.memoryBytes)}` : '';
    return { verdict: 'memory', clean, description: `ran out of memory${limit} (${how}): ${exit.oomLine.trim().slice(0, 200)}` };
  }
  return { verdict: 'crash', clean, description: how };
}
