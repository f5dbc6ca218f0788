/**
 * Submissions (issue 32): a participant's archive, received over HTTP or from `arena submit`, unpacked by
 * src/intake, named by its manifest under the participant's ownership (`alice/astar`), stored content-
 * addressed, built in the sandbox, then registered so the running ladder checks and places it.
 *
 * This file is the contract between the submission service (store, pipeline) and its doors (HTTP API, web
 * pages, CLI). Every function returns a Result: `forbidden` (HTTP 403), `not-found` (404), `limit` (429),
 * `too-large` (413), anything else (400).
 */
import type { Result } from '../../core/types.ts';
import { ok } from '../../core/types.ts';
import type { AppContext } from '../context.ts';
import type { Caller, SubmissionView } from './submission-shapes.ts';
import { buildLoop, type BuildLoopOptions } from './submission-builds.ts';
import { submissionSettings, type SubmissionSettings } from './submission-settings.ts';
import { showBuildLog, showSubmission, showSubmissions, viewOf } from './submission-views.ts';
import { receiveArchive } from './submit-archive.ts';

import { withdraw } from './participant-bots.ts';

export { participantBots, type ParticipantBot, type ParticipantBotVersion } from './participant-bots.ts';
export { submissionSettings, type SubmissionSettings } from './submission-settings.ts';
export type { BuildEvent, BuildLoopOptions } from './submission-builds.ts';

export type { Caller, SubmissionStatus, SubmissionView } from './submission-shapes.ts';
/** The compilers and runtimes a build may use on this server (for the doors' toolchains page). */
export { installedToolchains, type Toolchain } from '../../sandbox/build/toolchains.ts';

/**
 * Receives the archive file at `archive` (the door has already capped its length) from `caller`: unpacks it
 * into a new intake folder, reads the manifest, applies the ownership rules and the participant's limits,
 * stores the version and queues its build. Resolves once the submission is recorded (status `received`).
 * Refusals: `limit` (429: over the submissions per hour, a build still pending, or the stored bytes),
 * `forbidden` (403: another participant's bot), `too-large` (413: the archive over its cap), else 400.
 * `settings` (optional) overrides the limits and the builder (submission-settings.ts).
 */
export async function submitArchive(ctx: AppContext, caller: Caller, archive: string, settings?: Partial<SubmissionSettings>): Promise<Result<SubmissionView>> {
  const received = await receiveArchive(ctx, caller, archive, submissionSettings(settings));
  return received.ok ? ok(viewOf(received.value, [])) : received;
}

/** One submission: its owner and admins only (`forbidden` for anyone else). */
export async function submissionOf(ctx: AppContext, caller: Caller, id: number): Promise<Result<SubmissionView>> {
  return showSubmission(ctx, caller, id);
}

/** A submission's build log (at most 64 KiB kept): its owner and admins only. */
export async function buildLogOf(ctx: AppContext, caller: Caller, id: number): Promise<Result<string>> {
  return showBuildLog(ctx, caller, id);
}

/** The submissions of `participant` (default the caller's own), newest first: their owner and admins only. */
export async function listSubmissions(ctx: AppContext, caller: Caller, participant?: string): Promise<Result<SubmissionView[]>> {
  return showSubmissions(ctx, caller, participant);
}

/**
 * Builds received submissions one after another until `signal` aborts (`arena serve` runs this beside the web
 * server): each is built in the sandbox and registered, after which the ladder checks and places it.
 * `settings` (optional) overrides the builder; `onBuild` hears each submission this process took (`arena
 * worker` logs it, so its log says which machine built what). Several processes (servers, workers) may run
 * this on one PostgreSQL database: each submission is claimed by exactly one of them.
 */
export async function runSubmissionBuilds(ctx: AppContext, o: BuildLoopOptions & { readonly settings?: Partial<SubmissionSettings> }): Promise<void> {
  await buildLoop(ctx, submissionSettings(o.settings), o);
}

/** Unregisters a submitted bot (`alice/astar`): its owner and admins only; its versions, games and results stay. */
export async function withdrawBot(ctx: AppContext, caller: Caller, bot: string): Promise<Result<{ readonly bot: string }>> {
  return withdraw(ctx, caller, bot);
}
