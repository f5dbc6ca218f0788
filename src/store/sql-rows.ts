/**
 * Rows of the SQL stores (SQLite and PostgreSQL) as their drivers return them, and their conversion to the
 * Store's records (absent optional fields stay absent). One converter per table for both databases: where
 * the drivers hand a value over differently (a boolean as 0/1 or true/false, a time as text or a Date, JSON
 * as text or already parsed) the {@link SqlDialect} says which.
 */
import type { PuzzleState } from '../core/types.ts';
import type { Verdict } from '../core/verdict.ts';
import { dropEmpty, makeBound } from './row-codec.ts';
import type { BotRecord, MatchRecord, MatchStatus, ResultSummary, ScrambleRecord, StoredRuntime } from './types.ts';

/** What differs between the two SQL databases in the statements and rows the stores share. */
export interface SqlDialect {
  /** A table's name in statements: SQLite's file holds only ours; PostgreSQL's live in schema `arena`. */
  table(name: string): string;
  /** JSON columns come back as text (SQLite) rather than parsed by the driver (PostgreSQL's json). */
  readonly jsonIsText: boolean;
  /** Byte-wise text order in ORDER BY, whatever the server's locale (SQLite's BINARY is already). */
  readonly bytewise: string;
  /** A boolean as the driver binds it (better-sqlite3 binds no booleans: 0/1). */
  bool(v: boolean | undefined): boolean | number | null;
  /** Text as the database can hold it (PostgreSQL text cannot hold U+0000; only a broken bot sends one). */
  text(s: string): string;
}

/** SQLite through better-sqlite3. */
export const SQLITE: SqlDialect = {
  table: (name) => name,
  jsonIsText: true,
  bytewise: '',
  bool: (v) => (v === undefined ? null : v ? 1 : 0),
  text: (s) => s,
};

/** PostgreSQL through pg. */
export const POSTGRES: SqlDialect = {
  table: (name) => `arena.${name}`,
  jsonIsText: false,
  bytewise: ' COLLATE "C"',
  bool: (v) => v ?? null,
  text: (s) => (s.includes('\u0000') ? s.replaceAll('\u0000', '\uFFFD') : s),
};

/** A `bots` row. */
export interface BotRow {
  name: string;
  kind: 'command' | 'remote';
  cmd: string | null;
  cwd: string | null;
  stdio: number | boolean | null;
  token_hash: string | null;
  created_at: string | Date;
  snapshot?: string | null;
  runtime?: string | null;
  owner?: string | null;
  source?: string | null;
}

/** A `matches` row (the columns the stores read). */
export interface MatchRow {
  id: number | string;
  config: unknown;
  seed: string;
  generator_version: string;
  bots: unknown;
  status: MatchStatus;
  created_at: string | Date;
}

/** A `scrambles` row. */
export interface ScrambleRow {
  id: number;
  match_id: number;
  idx: number;
  state: unknown;
  puzzle_class: string;
  optimal: number | null;
  lower_bound: number;
  bound_note: string | null;
}

/** A result joined with its scramble, without the moves. */
export interface SummaryRow {
  scramble_id: number;
  bot: string;
  verdict: Verdict;
  move_count: number;
  wall_ms: number;
  cpu_ms: number | null;
  reported_ms: number | null;
  claimed_optimal: number | boolean | null;
  note: string | null;
  nodes: number | null;
  error_index: number | null;
  error: string | null;
  worker: string | null;
  cpu: string | null;
  match_id: number;
  idx: number;
  puzzle_class: string;
  optimal: number | null;
  lower_bound: number;
}

/** A result joined with its scramble, with its stored moves (their meaning is each store's: see stored-moves.ts). */
export interface ResultJoinRow extends SummaryRow {
  result_id: number;
  moves_kind: string;
  moves: string | Uint8Array;
}

const boolOf = (v: number | boolean | null): boolean | null => (v === null ? null : v === true || v === 1);
const isoOf = (v: string | Date): string => (typeof v === 'string' ? v : v.toISOString());
const jsonOf = (d: SqlDialect, v: unknown): unknown => (d.jsonIsText ? JSON.parse(v as string) : v);

/** A stored runtime as its column's text. */
export const runtimeText = (rt: StoredRuntime | undefined): string | null => (rt ? JSON.stringify({ program: rt.program, binds: rt.binds, pathDirs: rt.pathDirs }) : null);

/** A bot row as a record. */
export function toBot(row: BotRow): BotRecord {
  return dropEmpty<BotRecord>({
    name: row.name,
    kind: row.kind,
    cmd: row.cmd,
    cwd: row.cwd,
    stdio: boolOf(row.stdio),
    tokenHash: row.token_hash,
    snapshot: row.snapshot ?? undefined,
    runtime: row.runtime ? (JSON.parse(row.runtime) as StoredRuntime) : undefined,
    owner: row.owner ?? undefined,
    source: row.source ?? undefined,
    createdAt: isoOf(row.created_at),
  });
}

/** A match row as a record. */
export function toMatch(d: SqlDialect, row: MatchRow): MatchRecord {
  return {
    id: Number(row.id),
    config: jsonOf(d, row.config),
    seed: row.seed,
    generatorVersion: row.generator_version,
    bots: jsonOf(d, row.bots) as string[],
    status: row.status,
    createdAt: isoOf(row.created_at),
  };
}

/** A scramble row as a record. */
export function toScramble(d: SqlDialect, row: ScrambleRow): ScrambleRecord {
  return {
    id: row.id,
    matchId: row.match_id,
    index: row.idx,
    state: jsonOf(d, row.state) as PuzzleState,
    puzzleClass: row.puzzle_class,
    bound: makeBound(row.optimal, row.lower_bound),
    ...(row.bound_note !== null ? { boundNote: row.bound_note } : {}),
  };
}

/** A joined result row as a summary. */
export function toSummary(row: SummaryRow): ResultSummary {
  return dropEmpty<ResultSummary>({
    scrambleId: row.scramble_id,
    bot: row.bot,
    verdict: row.verdict,
    moveCount: row.move_count,
    wallMs: row.wall_ms,
    cpuMs: row.cpu_ms,
    reportedMs: row.reported_ms,
    claimedOptimal: boolOf(row.claimed_optimal),
    note: row.note,
    nodes: row.nodes,
    errorIndex: row.error_index,
    error: row.error,
    worker: row.worker,
    cpu: row.cpu,
    matchId: row.match_id,
    scrambleIndex: row.idx,
    puzzleClass: row.puzzle_class,
    bound: makeBound(row.optimal, row.lower_bound),
  });
}
