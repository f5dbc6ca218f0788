import type { Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import type { MatchStatus } from '../store/types.ts';
import type { AppContext } from './context.ts';
import { showMatch, type MatchReport } from './matches.ts';

/** A match page's data: the report and the configuration it was started with. */
export interface MatchView {
  readonly report: MatchReport;
  readonly config: unknown;
}

/** The report and stored configuration of a match. */
export async function matchView(ctx: AppContext, id: number): Promise<Result<MatchView>> {
  const report = await showMatch(ctx, id);
  if (!report.ok) return report;
  const m = await ctx.store.getMatch(id);
  return { ok: true, value: { report: report.value, config: m?.config ?? null } };
}

/** How far a match is: results stored out of scrambles × bots, and its status. */
export interface MatchProgress {
  readonly done: number;
  readonly total: number;
  readonly status: MatchStatus;
}

/** The progress of a match as the database has it now (whichever process is playing it). */
export async function matchProgress(ctx: AppContext, id: number): Promise<Result<MatchProgress>> {
  const m = await ctx.store.getMatch(id);
  if (!m) return reject('no-match', `no match with id ${id}`);
  const [scrambles, results] = await Promise.all([ctx.store.listScrambles(id), ctx.store.listSummaries(id)]);
  return { ok: true, value: { done: results.length, total: scrambles.length * m.bots.length, status: m.status } };
}
