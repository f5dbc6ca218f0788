import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { parseMatchConfig, tieBreakOf } from '../../referee/match-config.ts';
import { sprtTraceOf } from '../../referee/match-report.ts';
import { settingRows, type SettingRow } from '../../referee/settings/settings-view.ts';
import type { SprtTrace } from '../../stats/sprt-progress.ts';

export type { SprtTrace } from '../../stats/sprt-progress.ts';
export type { SettingRow } from '../../referee/settings/settings-view.ts';
import type { MatchRecord, MatchStatus } from '../../store/types.ts';
import type { AppContext } from '../context.ts';
import { showMatch } from './records.ts';
import type { MatchReport } from '../../referee/match-report.ts';

/** A match page's data: the report, the configuration it was started with, and its SPRT's LLR trace. */
export interface MatchView {
  readonly report: MatchReport;
  /** The stored config as it is (shown raw when it does not validate: a database from elsewhere). */
  readonly config: unknown;
  /** The configuration view: each setting spelled as its flag takes it; absent when the config does not validate. */
  readonly settings?: readonly SettingRow[];
  /** Present when the match runs an SPRT. */
  readonly sprt?: SprtTrace;
}

/** The report and stored configuration of a match. */
export async function matchView(ctx: AppContext, id: number): Promise<Result<MatchView>> {
  const report = await showMatch(ctx, id);
  if (!report.ok) return report;
  const m = await ctx.store.getMatch(id);
  const sprt = m ? await traceOf(ctx, m) : undefined;
  const settings = configRows(m?.config);
  return { ok: true, value: { report: report.value, config: m?.config ?? null, ...(settings ? { settings } : {}), ...(sprt ? { sprt } : {}) } };
}

/** The configuration view of a stored config (read off the settings schema), or undefined when it does not validate. */
export function configRows(stored: unknown): SettingRow[] | undefined {
  const config = parseMatchConfig(stored);
  return config.ok ? settingRows(config.value) : undefined;
}

/** The LLR of a match's SPRT after each counted scramble, with its bounds and decision; null without an SPRT. */
export async function matchSprt(ctx: AppContext, id: number): Promise<Result<SprtTrace | null>> {
  const m = await ctx.store.getMatch(id);
  if (!m) return reject('no-match', `no match with id ${id}`);
  return { ok: true, value: (await traceOf(ctx, m)) ?? null };
}

async function traceOf(ctx: AppContext, m: MatchRecord): Promise<SprtTrace | undefined> {
  const config = parseMatchConfig(m.config);
  if (!config.ok || !config.value.sprt || m.bots.length !== 2) return undefined;
  return sprtTraceOf(config.value.sprt, m.bots, await ctx.store.listSummaries(m.id), tieBreakOf(config.value));
}

/** How far a match is: results stored out of scrambles × bots, and its status. */
export interface MatchProgress {
  readonly done: number;
  readonly total: number;
  readonly status: MatchStatus;
}

/**
 * Progress from results stored and plays planned (scrambles × bots). A finished match is complete with what
 * it played: an SPRT that decided early leaves planned plays that will never be played.
 */
export function progressOf(status: MatchStatus, done: number, planned: number): MatchProgress {
  return { done, total: status === 'finished' ? done : planned, status };
}

/** The progress of a match as the database has it now (whichever process is playing it). */
export async function matchProgress(ctx: AppContext, id: number): Promise<Result<MatchProgress>> {
  const m = await ctx.store.getMatch(id);
  if (!m) return reject('no-match', `no match with id ${id}`);
  const [scrambles, results] = await Promise.all([ctx.store.listScrambles(id), ctx.store.listSummaries(id)]);
  return { ok: true, value: progressOf(m.status, results.length, scrambles.length * m.bots.length) };
}
