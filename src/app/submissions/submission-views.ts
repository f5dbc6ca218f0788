/**
 * Submissions as their owner (or an admin) sees them. What happens after the build is the ladder's: a
 * registered submission's status is READ from the ladder's version of its bot and build (new or checking →
 * checking, placing → placing, placed → placed, failed → failed with the ladder's note), never copied, so
 * it cannot drift from what the ladder says.
 */
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import type { BotVersion } from '../../store/ladder-types.ts';
import type { SubmissionRecord } from '../../store/submission-types.ts';
import type { AppContext } from '../context.ts';
import type { Caller, SubmissionStatus, SubmissionView } from './submission-shapes.ts';

const LADDER_STATUS: Record<BotVersion['status'], SubmissionStatus> = { new: 'checking', checking: 'checking', placing: 'placing', placed: 'placed', failed: 'failed' };

/** A stored submission as shown, its status read from `versions` (the ladder's) once it is registered. */
export function viewOf(s: SubmissionRecord, versions: readonly BotVersion[]): SubmissionView {
  const base = { id: s.id, participant: s.participant, bot: s.bot, version: s.version, createdAt: s.createdAt, updatedAt: s.updatedAt };
  if (s.status !== 'checking' || s.ladderHash === undefined) return { ...base, status: s.status, ...(s.reason !== undefined ? { reason: s.reason } : {}) };
  const v = versions.find((x) => x.bot === s.bot && x.hash === s.ladderHash);
  if (!v) return { ...base, status: 'checking', reason: 'built and registered; waiting for the running ladder to take it' };
  const status = LADDER_STATUS[v.status];
  const reason = v.note ?? (status === 'checking' ? 'the ladder is checking it (bot check in the sandbox)' : undefined);
  return { ...base, status, ladderVersion: v.number, ...(reason !== undefined ? { reason } : {}), updatedAt: v.updatedAt > s.updatedAt ? v.updatedAt : s.updatedAt };
}

/** The ladder's versions of the submitted bots among `subs` (one read). */
async function versionsOf(ctx: AppContext, subs: readonly SubmissionRecord[]): Promise<BotVersion[]> {
  if (!subs.some((s) => s.ladderHash !== undefined)) return [];
  const bots = new Set(subs.map((s) => s.bot));
  return (await ctx.store.ladder().listVersions()).filter((v) => bots.has(v.bot));
}

/** The submission `id` when `caller` may see it (its participant or an admin). */
async function ownSubmission(ctx: AppContext, caller: Caller, id: number): Promise<Result<SubmissionRecord>> {
  const s = Number.isSafeInteger(id) && id > 0 ? await ctx.store.submissions().get(id) : undefined;
  if (!s) return reject('not-found', `no submission ${id}`);
  if (s.participant !== caller.name && !caller.admin) return reject('forbidden', `submission ${id} is not yours`);
  return ok(s);
}

/** One submission: its owner and admins only. */
export async function showSubmission(ctx: AppContext, caller: Caller, id: number): Promise<Result<SubmissionView>> {
  const s = await ownSubmission(ctx, caller, id);
  return s.ok ? ok(viewOf(s.value, await versionsOf(ctx, [s.value]))) : s;
}

/** A submission's build log: its owner and admins only (empty before its build). */
export async function showBuildLog(ctx: AppContext, caller: Caller, id: number): Promise<Result<string>> {
  const s = await ownSubmission(ctx, caller, id);
  return s.ok ? ok((await ctx.store.submissions().log(id)) ?? '') : s;
}

/** A participant's submissions, newest first: their owner and admins only. */
export async function showSubmissions(ctx: AppContext, caller: Caller, participant = caller.name): Promise<Result<SubmissionView[]>> {
  if (participant !== caller.name && !caller.admin) return reject('forbidden', `the submissions of ${participant} are theirs to see`);
  const subs = await ctx.store.submissions().list(participant);
  const versions = await versionsOf(ctx, subs);
  return ok(subs.map((s) => viewOf(s, versions)));
}
