/**
 * What one build may use, and how each refusal is said to the participant. The defaults are issue 32's:
 * two minutes, 1 GiB of memory, 256 processes, a 256 MiB disk budget; all configurable per call.
 */
import type { IntakeLimits } from '../../intake/limits.ts';
import { INTAKE_LIMITS } from '../../intake/limits.ts';
import { formatSize } from '../../transport/process/bot-limits.ts';

/** The limits of one build. */
export interface BuildLimits {
  /** Wall time from the sandbox's start to the end of its output, seconds. */
  readonly seconds: number;
  /** Memory of all the build's processes together (its control group; each process's RLIMIT_DATA), bytes. */
  readonly memoryBytes: number;
  /** Processes (and threads) alive at once: the pids control group, else RLIMIT_NPROC on the build's own uid. */
  readonly processes: number;
  /** Bytes the build may write: its copy of the bot's folder, /tmp and /dev/shm together. */
  readonly diskBytes: number;
  /** Caps of the built folder as it comes back (an upload's, with room for the tar headers of an uncompressed stream). */
  readonly output: IntakeLimits;
}

const MiB = 2 ** 20;

/**
 * The built folder comes back as an uncompressed tar: every entry costs a 512-byte header (two with a long
 * name) and up to 511 bytes of padding, so the stream may exceed the unpacked cap by that much.
 */
function outputLimits(intake: IntakeLimits): IntakeLimits {
  return { ...intake, archiveBytes: intake.unpackedBytes + intake.entries * 2048 + MiB };
}

/** 120 s, 1 GiB, 256 processes, 256 MiB of disk; the output under the intake caps of an upload. */
export const BUILD_LIMITS: BuildLimits = {
  seconds: 120,
  memoryBytes: 1024 * MiB,
  processes: 256,
  diskBytes: 256 * MiB,
  output: outputLimits(INTAKE_LIMITS),
};

/** Fills in the defaults. */
export function resolveBuildLimits(partial: Partial<BuildLimits> = {}): BuildLimits {
  return { ...BUILD_LIMITS, ...partial };
}

/** Why a build failed, as a code the pipeline stores. */
export type BuildFailureCode =
  | 'build-failed'
  | 'build-timeout'
  | 'build-memory'
  | 'build-processes'
  | 'build-disk'
  | 'build-output'
  | 'build-cancelled'
  | 'build-sandbox';

/** The one-line reason of each limit, in the participant's words. */
export const limitReason = {
  timeout: (l: BuildLimits) => `the build ran out of time after ${l.seconds} s`,
  memory: (l: BuildLimits) => `the build used more than ${formatSize(l.memoryBytes)} of memory`,
  processes: (l: BuildLimits) => `the build could not fork: more than ${l.processes} processes`,
  disk: (l: BuildLimits) => `the build wrote more than its ${formatSize(l.diskBytes)} disk budget`,
} as const;
