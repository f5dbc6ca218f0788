/**
 * What the submission doors (the API, the pages) call: the submission service's contract
 * (src/app/submissions/submissions.ts) bound to one context, and the list of installed toolchains. Handed to
 * the routes as one object so unit tests can give them an in-memory stand-in.
 */
import type { Result } from '../core/types.ts';
import type { AppContext } from '../app/context.ts';
import { buildLogOf, installedToolchains, listSubmissions, submissionOf, submitArchive, withdrawBot, type Caller, type SubmissionView, type Toolchain } from '../app/submissions/submissions.ts';

export type { Toolchain } from '../app/submissions/submissions.ts';

/** The services behind the submission doors, each on behalf of a caller. */
export interface SubmissionServices {
  submitArchive(caller: Caller, archive: string): Promise<Result<SubmissionView>>;
  submissionOf(caller: Caller, id: number): Promise<Result<SubmissionView>>;
  buildLogOf(caller: Caller, id: number): Promise<Result<string>>;
  listSubmissions(caller: Caller, participant?: string): Promise<Result<SubmissionView[]>>;
  /** Withdraws a submitted bot from the arena (its owner and admins); its results stay. */
  withdrawBot(caller: Caller, bot: string): Promise<Result<{ readonly bot: string }>>;
  /** The compilers and runtimes installed on this server (what a build may use). */
  toolchains(): Promise<readonly Toolchain[]>;
}

/** The real services over `ctx`; `toolchains` lists what a build may use (by default what is installed here). */
export function submissionServices(ctx: AppContext, toolchains: () => Promise<readonly Toolchain[]> = async () => installedToolchains()): SubmissionServices {
  return {
    submitArchive: (caller, archive) => submitArchive(ctx, caller, archive),
    submissionOf: (caller, id) => submissionOf(ctx, caller, id),
    buildLogOf: (caller, id) => buildLogOf(ctx, caller, id),
    listSubmissions: (caller, participant) => listSubmissions(ctx, caller, participant),
    withdrawBot: (caller, bot) => withdrawBot(ctx, caller, bot),
    toolchains,
  };
}

/** The HTTP status of a refusal, as the contract names them: forbidden 403, not-found 404, limit 429, too-large 413, others 400. */
export function statusOfRefusal(code: string): 400 | 403 | 404 | 413 | 429 {
  switch (code) {
    case 'forbidden':
      return 403;
    case 'not-found':
      return 404;
    case 'limit':
      return 429;
    case 'too-large':
      return 413;
    default:
      return 400;
  }
}

/** Whether a submission's status is final (nothing more will happen to it). */
export const isFinal = (status: SubmissionView['status']): boolean => status === 'placed' || status === 'failed';
