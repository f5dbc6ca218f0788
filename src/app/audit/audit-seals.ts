/**
 * The seals of one match checked against what is stored (src/store/seal.ts says what each covers): what the
 * replay of the moves cannot see, a changed time or verdict of a result without moves, a deleted or inserted
 * row, a changed bound or configuration.
 */
import type { Bound } from '../../core/types.ts';
import { countSeal, matchCountSeal, matchSeal, removalSeal, resultSeal, scrambleSeal, type SealKey } from '../../store/seal.ts';
import type { MatchRecord, MatchSeals, ResultSummary, SealMeta } from '../../store/types.ts';

/** One problem of a match: the scramble (1-based) and bot when it concerns one. */
export interface SealProblem {
  readonly scramble?: number;
  readonly bot?: string;
  readonly what: string;
}

/** What the audit recomputed from the stored rows, for the seals to be checked against. */
export interface SealFacts {
  /** By scramble id: the stored fields a scramble's seal covers, its state's digest recomputed. */
  readonly scrambles: ReadonlyMap<number, { readonly index: number; readonly puzzleClass: string; readonly bound: Bound; readonly boundNote?: string; readonly stateSha256: string }>;
  /** By `${scrambleId}\0${bot}`: the stored result and the digest of its moves recomputed. */
  readonly results: ReadonlyMap<string, { readonly summary: ResultSummary; readonly movesSha256: string }>;
}

/** The key of a result in {@link SealFacts}. */
export const resultKey = (scrambleId: number, bot: string) => `${scrambleId}\u0000${bot}`;

/**
 * The database's count of sealed matches against its seal and the numbers the matches carry (`seqs`, of
 * every match): a match deleted whole leaves a gap.
 */
export function matchCountProblems(k: SealKey, meta: SealMeta, seqs: readonly number[]): string[] {
  const out: string[] = [];
  if (meta.matchesSeal !== undefined ? meta.matchesSeal !== matchCountSeal(k, meta.sealedMatches) : meta.sealedMatches > 0) {
    out.push(`the database's count of sealed matches (${meta.sealedMatches}) does not match its seal: matches were deleted or inserted and the count edited`);
  }
  const have = new Set(seqs);
  for (let seq = 1; seq <= meta.sealedMatches; seq++) if (!have.has(seq)) out.push(`sealed match number ${seq} of ${meta.sealedMatches} is missing: a match was deleted`);
  return out;
}

/** Every seal of `match` checked; problems, and notes on what predates the database's key. */
export function sealProblems(k: SealKey, meta: SealMeta, match: MatchRecord, seals: MatchSeals, facts: SealFacts): { problems: SealProblem[]; notes: string[] } {
  const problems: SealProblem[] = [];
  const notes: string[] = [];
  const after = meta.sealedAfter ?? { match: Infinity, result: Infinity };
  const sealedMatch = seals.seal !== undefined || match.id > after.match;
  if (seals.seal !== undefined) {
    if (seals.seal !== matchSeal(k, { ...match, seq: seals.seq ?? 0 })) problems.push({ what: "the match's configuration, seed, generator or bots changed after it was sealed" });
    // The watermark is the largest id when the key came, and matches are never deleted (so ids are never
    // reused): every sealed match lies above it. (Results are not checked so: a purge may free the largest id.)
    if (match.id <= after.match) problems.push({ what: `the match is sealed, yet the database's watermark (${after.match}) says it predates the key: the watermark was raised` });
  } else if (sealedMatch) {
    problems.push({ what: 'the match has no seal, though it was created after the database got its key: its row was inserted, or its seal removed' });
  } else {
    notes.push('the match was created before the database got its key: only what was recorded since is sealed');
  }
  if (seals.countSeal !== undefined ? seals.countSeal !== countSeal(k, match.id, seals.sealedResults) : seals.sealedResults > 0) {
    problems.push({ what: `the match's count of sealed results (${seals.sealedResults}) does not match its seal: results were deleted or inserted and the count edited` });
  }

  for (const s of seals.scrambles) {
    const f = facts.scrambles.get(s.scrambleId);
    if (!f) continue;
    const at = { scramble: s.index + 1 };
    if (s.seal === undefined || s.stateSha256 === undefined) {
      if (sealedMatch) problems.push({ ...at, what: 'the scramble has no seal, though its match is sealed: it was inserted, or its seal removed' });
      continue;
    }
    if (s.stateSha256 !== f.stateSha256) problems.push({ ...at, what: 'the stored state changed after it was sealed' });
    else if (s.seal !== scrambleSeal(k, { matchId: match.id, ...f })) problems.push({ ...at, what: 'its class or bound changed after it was sealed' });
  }

  const seen = new Set<number>();
  let old = 0;
  for (const r of seals.results) {
    const f = facts.results.get(resultKey(r.scrambleId, r.bot));
    // A result recorded after the audit read the match's results (it is running): counted, checked next time.
    if (!f) {
      if (r.seq !== undefined) seen.add(r.seq);
      continue;
    }
    const at = { scramble: f.summary.scrambleIndex + 1, bot: r.bot };
    if (r.seal === undefined || r.seq === undefined || r.movesSha256 === undefined) {
      if (r.resultId > after.result) problems.push({ ...at, what: 'the result has no seal, though it was recorded after the database got its key: inserted directly, or written by a process without the key' });
      else old++;
      continue;
    }
    if (r.seq > seals.sealedResults) problems.push({ ...at, what: `the result is numbered ${r.seq}, beyond the match's ${seals.sealedResults} sealed results: it was inserted` });
    if (seen.has(r.seq)) problems.push({ ...at, what: `a second result numbered ${r.seq}: it was copied` });
    seen.add(r.seq);
    if (r.movesSha256 !== f.movesSha256) {
      problems.push({ ...at, what: 'the stored moves changed after they were sealed' });
    } else if (r.seal !== resultSeal(k, { ...f.summary, matchId: match.id, seq: r.seq, movesSha256: r.movesSha256 })) {
      problems.push({ ...at, what: 'the row does not match its seal: its verdict, move count, times, claims, notes or worker changed' });
    }
  }
  if (old > 0) notes.push(`${old} result(s) were recorded before the database got its key: checked by replay only`);

  const removed = new Map(seals.removals.map((r) => [r.seq, r]));
  for (let seq = 1; seq <= seals.sealedResults; seq++) {
    if (seen.has(seq)) continue;
    const gone = removed.get(seq);
    if (!gone) {
      problems.push({ what: `sealed result number ${seq} of ${seals.sealedResults} is missing: a row was deleted` });
    } else if (gone.seal !== removalSeal(k, { matchId: match.id, seq, scrambleIndex: gone.scrambleIndex, bot: gone.bot })) {
      problems.push({ scramble: gone.scrambleIndex + 1, bot: gone.bot, what: `sealed result number ${seq} is missing, and the record of its removal does not match its seal` });
    }
  }
  const purged = seals.removals.filter((r) => !seen.has(r.seq)).length;
  if (purged > 0) notes.push(`${purged} sealed result(s) were removed with arena bot remove --purge`);
  return { problems, notes };
}
