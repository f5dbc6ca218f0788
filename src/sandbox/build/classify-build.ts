/**
 * What a finished build earns, as a pure function of how it ended: the first limit it broke (time,
 * memory, processes, disk) in the participant's words, else its own failure, else a refusal of its output.
 */
import type { ExitCause } from '../../transport/process/exit-cause.ts';
import { DISK_LINE } from '../../transport/process/exit-cause.ts';
import type { BuildFailureCode, BuildLimits } from './build-limits.ts';
import { limitReason } from './build-limits.ts';
import { COPY_FAILED } from './build-script.ts';

/** Fork failures as shells and runtimes report them (EAGAIN at RLIMIT_NPROC or the pids cap). */
export const FORK_LINE = /Resource temporarily unavailable|fork: retry|Cannot fork|can't fork|BlockingIOError/i;
/** How the process watch describes a bot over its process limit (exit-cause.ts). */
const PROCESSES_BREACH = /processes, over the limit of/;
/** How exit-cause.ts describes a write past RLIMIT_FSIZE (set just above the disk budget). */
const FSIZE_BREACH = /wrote past the file-size limit/;

/** Everything known about a build once its sandbox is gone. */
export interface BuildEnd {
  /** The build was stopped by the referee: its time ran out, or its caller cancelled it. */
  readonly stopped?: 'timeout' | 'cancelled';
  /** How the sandbox's process ended (the build's script's exit, or a signal). */
  readonly exit: ExitCause;
  /** The build's first process could not join its control groups (exit 125, nothing written): nothing of it ran. */
  readonly joinFailed: boolean;
  /** Forks the kernel refused at the process cap (its pids group); undefined where none counts them (RLIMIT_NPROC). */
  readonly refusedForks?: number;
  /** Bytes of output (the tar stream): any means the build command itself succeeded. */
  readonly outputBytes: number;
  /** The kept log. */
  readonly log: string;
  readonly unpacked: { readonly ok: true } | { readonly ok: false; readonly reason: string };
}

/** The failure of a build, or undefined when it succeeded. */
export function classifyBuild(end: BuildEnd, limits: BuildLimits): { code: BuildFailureCode; reason: string } | undefined {
  const failed = !end.exit.clean;
  if (end.stopped === 'cancelled') return { code: 'build-cancelled', reason: 'the build was cancelled' };
  if (end.stopped === 'timeout') return { code: 'build-timeout', reason: limitReason.timeout(limits) };
  if (end.joinFailed) return { code: 'build-sandbox', reason: 'cannot confine the build: the kernel refused to move it into its control groups' };
  if (end.exit.verdict === 'memory') return { code: 'build-memory', reason: limitReason.memory(limits) };
  // A build that hit the process cap fails even when its command exited 0: a fork it needed was refused.
  // Without a counter, the log's fork failures say so (a build printing one on purpose only fails itself).
  const forkRefused = end.refusedForks === undefined ? FORK_LINE.test(end.log) : end.refusedForks > 0 || (failed && FORK_LINE.test(end.log));
  if (forkRefused || PROCESSES_BREACH.test(end.exit.description)) {
    return { code: 'build-processes', reason: limitReason.processes(limits) };
  }
  if (failed && (DISK_LINE.test(end.log) || FSIZE_BREACH.test(end.exit.description))) return { code: 'build-disk', reason: limitReason.disk(limits) };
  if (failed && end.outputBytes === 0) {
    if (/exited with code (\d+)/.exec(end.exit.description)?.[1] === String(COPY_FAILED) && /arena: cannot copy/.test(end.log)) {
      return { code: 'build-failed', reason: "the bot's folder could not be copied into the build's space" };
    }
    return { code: 'build-failed', reason: `the build command failed (${end.exit.description})` };
  }
  if (!end.unpacked.ok) return { code: 'build-output', reason: `the built folder was refused: ${end.unpacked.reason}` };
  if (failed) return { code: 'build-output', reason: `the built folder could not be packed (${end.exit.description})` };
  return undefined;
}
