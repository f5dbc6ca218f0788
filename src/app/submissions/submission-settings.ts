/**
 * A participant's limits and where submissions live on disk. Every limit is configurable: through the
 * settings a caller passes, else the environment (ARENA_SUBMISSIONS_PER_HOUR, ARENA_SUBMISSION_BYTES,
 * ARENA_BUILD_SLOTS; a build's own limits: build-runner.ts), else
 * issue 32's defaults. Kept simple: one object, read once per call.
 */
import { INTAKE_LIMITS, type IntakeLimits } from '../../intake/limits.ts';
import { DEFAULT_BUILDER, type BuildRunner } from '../bots/build-runner.ts';

export { submissionsRoot } from '../bots/materialize-version.ts';

/** The limits and the builder of the submission service. */
export interface SubmissionSettings {
  /** Submissions a participant may make in any hour (default 20). */
  readonly perHour: number;
  /** Bytes of canonical archives a participant may have stored, each version counted once (default 200 MiB). */
  readonly storedBytes: number;
  /** The caps of one archive (src/intake/limits.ts). */
  readonly intake: IntakeLimits;
  /** Builds a version (build-runner.ts). */
  readonly builder: BuildRunner;
  /**
   * Builds run at once by one process (default 2): a participant has one build at a time, so a build that
   * runs out its time limit holds one slot and never the others' submissions.
   */
  readonly buildSlots: number;
}

const MiB = 2 ** 20;

/** The defaults of issue 32. */
export const DEFAULT_SUBMISSION_SETTINGS: SubmissionSettings = { perHour: 20, storedBytes: 200 * MiB, intake: INTAKE_LIMITS, builder: DEFAULT_BUILDER, buildSlots: 2 };

/** A positive whole number from the environment, else `fallback`. */
function envCount(env: NodeJS.ProcessEnv, key: string, fallback: number): number {
  const raw = env[key];
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return fallback;
  return Number(raw.trim());
}

/** The settings in force: `given` over the environment over the defaults. */
export function submissionSettings(given: Partial<SubmissionSettings> = {}, env: NodeJS.ProcessEnv = process.env): SubmissionSettings {
  return {
    perHour: given.perHour ?? envCount(env, 'ARENA_SUBMISSIONS_PER_HOUR', DEFAULT_SUBMISSION_SETTINGS.perHour),
    storedBytes: given.storedBytes ?? envCount(env, 'ARENA_SUBMISSION_BYTES', DEFAULT_SUBMISSION_SETTINGS.storedBytes),
    intake: given.intake ?? DEFAULT_SUBMISSION_SETTINGS.intake,
    builder: given.builder ?? DEFAULT_SUBMISSION_SETTINGS.builder,
    buildSlots: Math.max(1, given.buildSlots ?? envCount(env, 'ARENA_BUILD_SLOTS', DEFAULT_SUBMISSION_SETTINGS.buildSlots)),
  };
}
