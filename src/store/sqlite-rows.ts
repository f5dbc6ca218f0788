/**
 * Rows of the SQLite store as better-sqlite3 returns them, and their conversion to the Store's records
 * (absent optional fields stay absent), the column lists results are read with, and the driver's error codes.
 * Split from ./sqlite-store.ts to keep that file to its statements.
 */
import type { PuzzleState } from '../core/types.ts';
import type { Verdict } from '../core/verdict.ts';
import { dropEmpty, makeBound } from './row-codec.ts';
import type { StoredMovesKind } from './sqlite-moves.ts';
import type { BotRecord, MatchRecord, MatchStatus, ResultSummary, ScrambleRecord } from './types.ts';

/** A `bots` row. */
export interface BotRow {
  name: string;
  kind: 'command' | 'remote';
  cmd: string | null;
  cwd: string | null;
  stdio: number | null;
  token_hash: string | null;
  created_at: string;
}

/** A `matches` row (the columns the store reads). */
export interface MatchRow {
  id: number;
  config: string;
  seed: string;
  generator_version: string;
  bots: string;
  status: MatchStatus;
  created_at: string;
}

/** A `scrambles` row. */
export interface ScrambleRow {
  id: number;
  match_id: number;
  idx: number;
  state: string;
  puzzle_class: string;
  optimal: number | null;
  lower_bound: number;
  bound_note: string | null;
}

/** A result joined with its scramble, without the moves. */
export interface JoinedSummaryRow extends ScrambleRow {
  scramble_id: number;
  bot: string;
  verdict: Verdict;
  move_count: number;
  wall_ms: number;
  cpu_ms: number | null;
  reported_ms: number | null;
  claimed_optimal: number | null;
  note: string | null;
  nodes: number | null;
  error_index: number | null;
  error: string | null;
  worker: string | null;
  cpu: string | null;
}

/** A result joined with its scramble, with its stored moves. */
export interface JoinedResultRow extends JoinedSummaryRow {
  result_id: number;
  moves_kind: StoredMovesKind;
  moves: string | Uint8Array;
}

/** A bot row as a record. */
export function toBot(row: BotRow): BotRecord {
  return dropEmpty<BotRecord>({
    name: row.name,
    kind: row.kind,
    cmd: row.cmd,
    cwd: row.cwd,
    stdio: row.stdio === null ? null : row.stdio === 1,
    tokenHash: row.token_hash,
    createdAt: row.created_at,
  });
}

/** A match row as a record. */
export function toMatch(row: MatchRow): MatchRecord {
  return {
    id: row.id,
    config: JSON.parse(row.config) as unknown,
    seed: row.seed,
    generatorVersion: row.generator_version,
    bots: JSON.parse(row.bots) as string[],
    status: row.status,
    createdAt: row.created_at,
  };
}

/** A scramble row as a record. */
export function toScramble(row: ScrambleRow): ScrambleRecord {
  return {
    id: row.id,
    matchId: row.match_id,
    index: row.idx,
    state: JSON.parse(row.state) as PuzzleState,
    puzzleClass: row.puzzle_class,
    bound: makeBound(row.optimal, row.lower_bound),
    ...(row.bound_note !== null ? { boundNote: row.bound_note } : {}),
  };
}


/** A joined result row as a summary. */
export function toSummary(row: JoinedSummaryRow): ResultSummary {
  return dropEmpty<ResultSummary>({
    scrambleId: row.scramble_id,
    bot: row.bot,
    verdict: row.verdict,
    moveCount: row.move_count,
    wallMs: row.wall_ms,
    cpuMs: row.cpu_ms,
    reportedMs: row.reported_ms,
    claimedOptimal: row.claimed_optimal === null ? null : row.claimed_optimal === 1,
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

const SUMMARY_COLUMNS = `r.scramble_id, r.bot, r.verdict, r.move_count, r.wall_ms, r.cpu_ms, r.reported_ms,
         r.claimed_optimal, r.note, r.nodes, r.error_index, r.error, r.worker, r.cpu,
         s.match_id, s.idx, s.puzzle_class, s.optimal, s.lower_bound`;
const FROM_RESULTS = 'FROM results r JOIN scrambles s ON s.id = r.scramble_id';
/** Results with their scramble's columns and their moves. */
export const RESULT_SELECT = `SELECT ${SUMMARY_COLUMNS}, r.id AS result_id, r.moves_kind, r.moves ${FROM_RESULTS}`;
/** Results with their scramble's columns, without moves. */
export const SUMMARY_SELECT = `SELECT ${SUMMARY_COLUMNS} ${FROM_RESULTS}`;

/** The first line of an error's message. */
export function oneLine(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg.split('\n')[0];
}

/** better-sqlite3's error code (SQLITE_…), if any. */
export function sqliteCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}

/** True for a UNIQUE or PRIMARY KEY violation. */
export function isUniqueViolation(err: unknown): boolean {
  const code = sqliteCode(err);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True for a FOREIGN KEY violation. */
export function isForeignKeyViolation(err: unknown): boolean {
  return sqliteCode(err) === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
