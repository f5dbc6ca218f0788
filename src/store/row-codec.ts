/**
 * Conversions between the Store's JSON-shaped records and flat column values, shared by the SQLite and the
 * memory store so both behave the same (absent optional fields come back absent, not `undefined` or null).
 */
import type { Bound, PuzzleState, WireMoves } from '../core/types.ts';
import { MOVE_FORMS, moveFormOf, type MoveFormName } from '../puzzles/move-form.ts';
import { type RecordedMoves, wireMovesOf } from '../puzzles/move-pieces.ts';
import type { MatchFilter, MatchRecord, NewScramble, ScrambleRecord, SealMeta } from './types.ts';

/** How a `moves` column is to be decoded: the name of the move form it was encoded in. */
export type MovesKind = MoveFormName;

/** Encodes moves for storage in their move form (notation verbatim, pairs as JSON), with the form's name. */
export function encodeMoves(recorded: RecordedMoves): { kind: MovesKind; text: string } {
  const moves = wireMovesOf(recorded);
  const form = moveFormOf(moves);
  return { kind: form.name, text: form.encode(moves) };
}

/** Inverse of {@link encodeMoves}. */
export function decodeMoves(kind: MovesKind, text: string): WireMoves {
  return MOVE_FORMS[kind].decode(text);
}

/** Builds a Bound without an `optimal` key when it is unknown. */
export function makeBound(optimal: number | null | undefined, lowerBound: number): Bound {
  return optimal === null || optimal === undefined ? { lowerBound } : { optimal, lowerBound };
}

/**
 * The record of a scramble just stored as `id`: what a later read returns (the state as a JSON copy, not the
 * caller's object).
 */
export function storedScramble(id: number, matchId: number, s: NewScramble): ScrambleRecord {
  return {
    id,
    matchId,
    index: s.index,
    state: JSON.parse(encodeJson(s.state)) as PuzzleState,
    puzzleClass: s.puzzleClass,
    bound: makeBound(s.bound.optimal, s.bound.lowerBound),
    ...(s.boundNote !== undefined ? { boundNote: s.boundNote } : {}),
  };
}

/** JSON text of an arbitrary config; `undefined` is stored as null so the column is never empty. */
export function encodeJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/** Copies `src` without the keys whose value is null or undefined. */
export function dropEmpty<T extends object>(src: { [K in keyof T]: T[K] | null | undefined }): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src)) if (v !== null && v !== undefined) out[k] = v;
  return out as T;
}

/** Current time as an ISO-8601 UTC string, the format of every `created_at`. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** `text` equals `key` or begins with `key` followed by a space (whole-word prefix, as MatchFilter says). */
export function wordPrefix(text: string, key: string): boolean {
  return text === key || text.startsWith(`${key} `);
}

/** The {@link MatchFilter} test on a match and its scramble classes (the memory store's version of the SQL). */
export function keepMatch(m: MatchRecord, classes: readonly string[], f: MatchFilter): boolean {
  if (f.status !== undefined && m.status !== f.status) return false;
  if (f.bot !== undefined && !m.bots.some((b) => wordPrefix(b, f.bot!))) return false;
  if (f.puzzleClass !== undefined && !classes.some((c) => wordPrefix(c, f.puzzleClass!))) return false;
  return true;
}

/** The `seal_meta` row of a SQLite or PostgreSQL database (PostgreSQL bigints arrive as numbers or text). */
export interface SealMetaRow {
  db_id: string;
  key_check: string | null;
  after_match: number | string | null;
  after_result: number | string | null;
  sealed_matches: number;
  matches_seal: string | null;
  head_seal: string | null;
  pre_matches: number | string | null;
  pre_results: number | string | null;
  pre_optima: number | string | null;
  pre_versions: number | string | null;
  pre_games: number | string | null;
  sealed_games: number | string;
  games_seal: string | null;
}

/** The columns of a {@link SealMetaRow}, for the SELECT of either store. */
export const SEAL_META_COLUMNS =
  'db_id, key_check, after_match, after_result, sealed_matches, matches_seal, head_seal, pre_matches, pre_results, pre_optima, pre_versions, pre_games, sealed_games, games_seal';

/** `{ [key]: value }`, or nothing for null. */
export function opt<K extends string, V>(key: K, value: V | null | undefined): { [P in K]?: V } {
  return (value === null || value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The `seal_meta` row as the Store hands it out. */
export function sealMetaOf(row: SealMetaRow): SealMeta {
  return {
    dbId: row.db_id,
    ...(row.key_check !== null ? { keyCheck: row.key_check } : {}),
    ...(row.after_match !== null && row.after_result !== null ? { sealedAfter: { match: Number(row.after_match), result: Number(row.after_result) } } : {}),
    sealedMatches: Number(row.sealed_matches),
    ...(row.matches_seal !== null ? { matchesSeal: row.matches_seal } : {}),
    ...(row.pre_matches !== null && row.pre_results !== null && row.pre_optima !== null && row.pre_versions !== null && row.pre_games !== null
      ? { preKey: { matches: Number(row.pre_matches), results: Number(row.pre_results), optima: Number(row.pre_optima), versions: Number(row.pre_versions), games: Number(row.pre_games) } }
      : {}),
    ...(row.head_seal !== null ? { headSeal: row.head_seal } : {}),
    sealedGames: Number(row.sealed_games),
    ...(row.games_seal !== null ? { gamesSeal: row.games_seal } : {}),
  };
}

/** A UTF-16 surrogate without its partner: UTF-8 cannot hold it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `s` with every lone surrogate as U+FFFD, as UTF-8 stores keep it. SQLite would otherwise keep its three
 * bytes and read them back as three U+FFFD, so a bot's note would not read back as it was sealed.
 */
export function wellFormed<T extends string | undefined>(s: T): T {
  return (s === undefined ? s : s.replace(LONE_SURROGATE, '\uFFFD')) as T;
}
