/**
 * `arena audit`: results anyone can re-check. For every stored answer of a match (or of every match): the
 * scramble regenerated from the seed and compared with the stored state, the moves replayed (streamed) to a
 * verdict, move count and error index compared with the stored ones, the bound checked; every (scramble,
 * bot) pair of a finished match holding exactly one result; every verdict against its time and the match's
 * limit; and, with the database's key, every seal (what replay cannot see: times, verdicts without moves,
 * deleted or inserted rows, the watermark, the optima cache, the ladder). A database with a key audited
 * without it is incomplete, never "holds", unless the replay checks alone were asked for (`noKey`).
 */
import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { parseMatchConfig, type MatchConfig } from '../../referee/match-config.ts';
import { stateDigest, type SealKey } from '../../store/seal.ts';
import type { MatchRecord, ResultSummary, ScrambleRecord, SealMeta } from '../../store/types.ts';
import { replayMismatch, replayStored } from './audit-replay.ts';
import { beatsBound, Regenerator, scrambleProblems, type ScrambleSource } from './audit-scrambles.ts';
import { matchCountProblems, resultKey, sealProblems, type SealFacts } from './audit-seals.ts';
import { auditKey, type Integrity } from './audit-key.ts';
import { headProblems, tableProblems } from './head-seals.ts';
import { verdictTimeProblem } from './verdict-times.ts';
import { cachedClaim, cachedOptimaProblems, provedOptimum, reprove, type ClaimedOptimum } from './optima-check.ts';
import { SlidingOracle } from '../../solvers/sliding/oracle.ts';
import { stateKey } from '../../referee/refine-bounds.ts';
import type { AppContext } from '../context.ts';
import { reportOf } from '../records/records.ts';

export type { Integrity } from './audit-key.ts';

/** One problem: which match, scramble (1-based) and bot when it concerns one, and what differs. */
export interface AuditProblem {
  readonly match: number;
  readonly scramble?: number;
  readonly bot?: string;
  readonly what: string;
}

/** What was checked of one match. */
export interface AuditedMatch {
  readonly match: number;
  readonly status: MatchRecord['status'];
  readonly scrambles: number;
  readonly results: number;
  /** Moves replayed, over all its answers. */
  readonly moves: number;
  readonly scrambleSource: ScrambleSource;
  /** What could not be checked, and why. */
  readonly notes: readonly string[];
}

/** The audit of a database. */
export interface AuditReport {
  /** True when every check that could be made holds and none that should be made was left out. */
  readonly ok: boolean;
  /** Set when the database has a key the audit did not have: how many sealed results went unchecked. */
  readonly incomplete?: { readonly unchecked: number; readonly keyFile: string };
  readonly integrity: Integrity;
  readonly matches: readonly AuditedMatch[];
  readonly problems: readonly AuditProblem[];
  /** What concerns the whole database and could not be checked (`--deep`: optima the oracle could not settle). */
  readonly notes: readonly string[];
}

/** What to audit. */
export interface AuditOptions {
  /** One match, or every match when absent. */
  readonly match?: number;
  /** The key file to check seals with, instead of the one the database's location names. */
  readonly keyFile?: string;
  /** The replay checks alone, without looking for a key (a database's copy audited on purpose without it). */
  readonly noKey?: boolean;
  /** Prove every cached optimum and every scramble's proved optimum again with the exact oracle (slow). */
  readonly deep?: boolean;
}

/** Scrambles read at once: a page of states is what an audit holds in memory besides one answer. */
const PAGE = 256;

/** Audits one match, or every match (oldest first). An unknown match is a rejection. */
export async function auditDatabase(ctx: AppContext, o: AuditOptions = {}): Promise<Result<AuditReport>> {
  let matches: MatchRecord[];
  if (o.match !== undefined) {
    const m = await ctx.store.getMatch(o.match);
    if (!m) return reject('no-match', `no match with id ${o.match}`);
    matches = [m];
  } else {
    matches = (await ctx.store.listMatches()).reverse();
  }
  const { integrity, key, meta } = await auditKey(ctx, o.keyFile, o.noKey);
  const problems: AuditProblem[] = integrity.problem ? [{ match: 0, what: integrity.problem }] : [];
  const database = (what: string) => problems.push({ match: 0, what });
  const audited: AuditedMatch[] = [];
  const tally: SealTally = { seqs: [], sealedRows: 0, keyedResults: 0, claims: [] };
  const notes: string[] = [];
  for (const m of matches) audited.push(await auditMatch(ctx, m, meta, key, problems, tally, o.noKey === true));
  if (key) {
    headProblems(key, meta).forEach(database);
    tableProblems(key, meta, await ctx.store.sealedTables()).forEach(database);
    // A match deleted whole shows only in the database's count, checked when every match is audited.
    if (o.match === undefined) matchCountProblems(key, meta, tally.seqs).forEach(database);
  } else if (meta.keyCheck === undefined && tally.sealedRows > 0 && !o.noKey && !integrity.problem) {
    database(`the database has no record of its key, yet ${tally.sealedRows} of its results and matches carry seals: the record (seal_meta.key_check) was removed`);
  }
  if (o.deep) (await deepProblems(ctx, tally.claims, notes)).forEach(database);
  const incomplete = integrity.missingKey !== undefined ? { unchecked: tally.keyedResults, keyFile: integrity.missingKey } : undefined;
  return { ok: true, value: { ok: problems.length === 0 && !incomplete, integrity, ...(incomplete ? { incomplete } : {}), matches: audited, problems, notes } };
}

/** `--deep`: every cached optimum and every scramble's proved optimum proved again by the exact oracle. */
async function deepProblems(ctx: AppContext, scrambleClaims: readonly ClaimedOptimum[], notes: string[]): Promise<string[]> {
  const problems: string[] = [];
  const claims = new Map<string, ClaimedOptimum>();
  for (const o of (await ctx.store.sealedTables()).optima) {
    const c = cachedClaim(o.key, o.optimal);
    if (typeof c === 'string') problems.push(c);
    else claims.set(`${o.key}\u0000${o.optimal}`, c);
  }
  // A scramble whose optimum the cache holds alike is proved once, with the cache's row.
  for (const c of scrambleClaims) if (!claims.has(`${stateKey(c.state)}\u0000${c.optimal}`)) claims.set(`${stateKey(c.state)}\u0000${c.optimal}`, c);
  const oracle = ctx.oracle?.() ?? new SlidingOracle();
  try {
    problems.push(...(await reprove(oracle, [...claims.values()], notes)));
  } finally {
    await oracle.close();
  }
  return problems;
}

/** What the matches' seals add up to: their numbers (for the database's count) and the rows that carry one. */
interface SealTally {
  readonly seqs: number[];
  /** Matches and results that carry a seal. */
  sealedRows: number;
  /** Results sealed or recorded since the database got its key: what a key would check. */
  keyedResults: number;
  /** The scrambles' proved optima, for `--deep`. */
  readonly claims: ClaimedOptimum[];
}

/** The facts the seals are checked against, gathered while replaying. */
type Facts = { -readonly [K in keyof SealFacts]: SealFacts[K] extends ReadonlyMap<infer I, infer V> ? Map<I, V> : never };

async function auditMatch(
  ctx: AppContext,
  match: MatchRecord,
  meta: SealMeta,
  key: SealKey | undefined,
  problems: AuditProblem[],
  tally: SealTally,
  noKey: boolean,
): Promise<AuditedMatch> {
  const problem = (what: string, scramble?: number, bot?: string) => problems.push({ match: match.id, ...(scramble !== undefined ? { scramble } : {}), ...(bot !== undefined ? { bot } : {}), what });
  const notes: string[] = [];
  const parsed = parseMatchConfig(match.config);
  const config: MatchConfig | undefined = parsed.ok ? parsed.value : undefined;
  if (!parsed.ok) problem(`its configuration cannot be read: ${parsed.reason}`);
  const regen = new Regenerator(match, config);
  if (regen.why) notes.push(regen.why);

  const summaries = await ctx.store.listSummaries(match.id);
  const byScramble = new Map<number, ResultSummary[]>();
  for (const r of summaries) byScramble.set(r.scrambleId, [...(byScramble.get(r.scrambleId) ?? []), r]);
  const facts: Facts = { scrambles: new Map(), results: new Map() };
  const stored: Array<{ id: number; index: number }> = [];
  let moves = 0;
  for (let from = 0; ; ) {
    const page = await ctx.store.listScrambles(match.id, { from, limit: PAGE });
    if (page.length === 0) break;
    for (const s of page) {
      const expected = stored.length === 0 ? 0 : stored[stored.length - 1].index + 1;
      if (s.index !== expected) problem(`scrambles ${expected + 1} to ${s.index} are missing: deleted`);
      stored.push({ id: s.id, index: s.index });
      const n = s.index + 1;
      const wrong = scrambleProblems(s, regen.expected(s.index));
      for (const w of wrong) problem(w, n);
      if (key) facts.scrambles.set(s.id, { index: s.index, puzzleClass: s.puzzleClass, bound: s.bound, ...(s.boundNote !== undefined ? { boundNote: s.boundNote } : {}), stateSha256: stateDigest(s.state) });
      const rows = byScramble.get(s.id) ?? [];
      // A stored state that is no puzzle cannot be replayed on; its problem is already said.
      if (wrong.some((w) => w.startsWith('the stored state is not a valid puzzle'))) continue;
      for (const r of rows) {
        const late = verdictTimeProblem(r, config?.timeLimitMs);
        if (late) problem(late, n, r.bot);
      }
      moves += await auditAnswers(ctx, s, rows, config, facts, (what, bot) => problem(what, n, bot));
    }
    const strict = key !== undefined && match.id > (meta.sealedAfter?.match ?? Infinity);
    for (const p of await cachedOptimaProblems(ctx.store, page, strict, notes)) problem(p.what, p.index + 1);
    for (const s of page) {
      const optimal = provedOptimum(s);
      if (optimal !== undefined) tally.claims.push({ state: s.state, optimal, where: `match ${match.id}, scramble ${s.index + 1}: its optimum` });
    }
    from = page[page.length - 1].index + 1;
  }
  await checkPairs(ctx, match, config, summaries, stored, byScramble, problem, notes);
  const seals = noKey ? undefined : await ctx.store.matchSeals(match.id);
  if (seals) {
    if (seals.seq !== undefined) tally.seqs.push(seals.seq);
    const after = meta.sealedAfter?.result;
    tally.sealedRows += seals.results.filter((r) => r.seal !== undefined).length + (seals.seal !== undefined ? 1 : 0);
    tally.keyedResults += seals.results.filter((r) => r.seal !== undefined || (after !== undefined && Number(r.resultId) > after)).length;
    if (key) {
      const got = sealProblems(key, meta, match, seals, facts);
      for (const p of got.problems) problem(p.what, p.scramble, p.bot);
      notes.push(...got.notes);
    }
  }
  return { match: match.id, status: match.status, scrambles: stored.length, results: summaries.length, moves, scrambleSource: regen.source, notes };
}

/** Replays every answer to one scramble; returns the moves replayed. */
async function auditAnswers(
  ctx: AppContext,
  s: ScrambleRecord,
  rows: readonly ResultSummary[],
  config: MatchConfig | undefined,
  facts: Pick<Facts, 'results'>,
  problem: (what: string, bot: string) => void,
): Promise<number> {
  let moves = 0;
  for (const r of rows) {
    const got = await replayStored(s.state, ctx.store.readMoves(s.id, r.bot));
    moves += got.legal;
    facts.results.set(resultKey(s.id, r.bot), { summary: r, movesSha256: got.movesSha256 });
    const differs = replayMismatch(r, got, config?.maxMoves);
    if (differs) problem(differs, r.bot);
    const short = beatsBound(r, s);
    if (short) problem(short, r.bot);
  }
  return moves;
}

/**
 * Every result belongs to a bot of the match, and no (scramble, bot) pair has two; a finished match has one
 * for every pair (unless its SPRT decided early, as its stored results must then show).
 */
async function checkPairs(
  ctx: AppContext,
  match: MatchRecord,
  config: MatchConfig | undefined,
  summaries: readonly ResultSummary[],
  scrambles: readonly { readonly id: number; readonly index: number }[],
  byScramble: ReadonlyMap<number, readonly ResultSummary[]>,
  problem: (what: string, scramble?: number, bot?: string) => void,
  notes: string[],
): Promise<void> {
  const bots = new Set(match.bots);
  for (const r of summaries) if (!bots.has(r.bot)) problem(`a result for "${r.bot}", who is not a bot of this match`, r.scrambleIndex + 1, r.bot);
  let early = false;
  if (match.status === 'finished' && config?.sprt) {
    const report = await reportOf(ctx, match);
    early = Boolean(report.summary.sprt?.decision);
    if (early) notes.push(`its SPRT decided (${report.summary.sprt?.decision}): the match stopped before all its scrambles were played`);
  }
  if (match.status === 'finished' && !early && config && scrambles.length !== config.count) {
    problem(`a finished match of ${config.count} scrambles, but ${scrambles.length} are stored`);
  }
  for (const s of scrambles) {
    const rows = byScramble.get(s.id) ?? [];
    for (const bot of match.bots) {
      const n = rows.filter((r) => r.bot === bot).length;
      if (n > 1) problem(`${n} results for one scramble and bot: exactly one is kept`, s.index + 1, bot);
      if (n === 0 && match.status === 'finished' && !early) problem('no result, though the match is finished: a row was deleted', s.index + 1, bot);
    }
  }
}
