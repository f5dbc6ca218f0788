/**
 * How a submission's version is built: an injectable function with the shape of the sandboxed builder
 * (src/sandbox/build/run-build.ts), which is the default; unit tests hand in a fake.
 */
import type { Rejection, Result } from '../../core/types.ts';
import { runBuild } from '../../sandbox/build/run-build.ts';
import type { BuildLimits } from '../../sandbox/build/build-limits.ts';

/** One build: the unpacked version `source`, built into the new folder `dest` with `command` (absent: nothing to run). */
export interface BuildRequest {
  readonly source: string;
  readonly dest: string;
  readonly command?: string;
  readonly signal?: AbortSignal;
  /** Paths no runtime the build's sandbox shows may lie in (the database, the checkout: guarded-paths.ts). */
  readonly guarded?: readonly string[];
}

/** A finished build: the folder the bot plays from, its output (at most 64 KiB kept) and how long it took. */
export interface BuildOutcome {
  readonly folder: string;
  readonly log: string;
  readonly seconds: number;
}

/** A failed build may carry its log beside its reason. */
export type BuildResult = Result<BuildOutcome> | (Rejection & { readonly log?: string });

/** The builder a submission uses: the sandboxed runBuild, or a fake in unit tests. */
export type BuildRunner = (r: BuildRequest) => Promise<BuildResult>;

/** At most this many bytes of a build log are kept (issue 32: 64 KiB). */
export const LOG_MAX_BYTES = 64 * 1024;

/** `log` cut to at most LOG_MAX_BYTES of UTF-8, on a character boundary, saying that it was cut. */
export function keptLog(log: string): string {
  const bytes = Buffer.from(log, 'utf8');
  if (bytes.length <= LOG_MAX_BYTES) return log;
  const mark = '\n[… log cut at 64 KiB]\n';
  let end = LOG_MAX_BYTES - Buffer.byteLength(mark);
  // Back up to the start of a UTF-8 character (a continuation byte is 10xxxxxx).
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8') + mark;
}

/**
 * The builder used when none is given: the sandboxed `runBuild` (src/sandbox/build/run-build.ts), whose
 * request and result this type is a part of (its failures carry their log), so it is assigned as it is.
 */
export const DEFAULT_BUILDER: BuildRunner = (r) => runBuild({ ...r, limits: buildLimitsOf(process.env) });

/**
 * The build limits the host set in the environment (every machine that builds reads its own, so a worker
 * builds under the same limits as the server when they share the setting): ARENA_BUILD_SECONDS,
 * ARENA_BUILD_MEMORY_MIB, ARENA_BUILD_PROCESSES, ARENA_BUILD_DISK_MIB; unset or malformed ones keep the
 * defaults of src/sandbox/build/build-limits.ts (120 s, 1 GiB, 256 processes, 256 MiB).
 */
export function buildLimitsOf(env: NodeJS.ProcessEnv): Partial<BuildLimits> {
  const count = (key: string): number | undefined => {
    const raw = env[key]?.trim();
    return raw !== undefined && /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : undefined;
  };
  const seconds = count('ARENA_BUILD_SECONDS');
  const memory = count('ARENA_BUILD_MEMORY_MIB');
  const processes = count('ARENA_BUILD_PROCESSES');
  const disk = count('ARENA_BUILD_DISK_MIB');
  return {
    ...(seconds !== undefined ? { seconds } : {}),
    ...(memory !== undefined ? { memoryBytes: memory * 2 ** 20 } : {}),
    ...(processes !== undefined ? { processes } : {}),
    ...(disk !== undefined ? { diskBytes: disk * 2 ** 20 } : {}),
  };
}
