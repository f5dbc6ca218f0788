/**
 * Rows of the PostgreSQL store as the driver returns them, the column lists results are read with, and their
 * conversion to the Store's records (absent optional fields stay absent). Split from ./pg-store.ts to keep
 * that file to its statements.
 */
import type { PuzzleState } from '../core/types.ts';
import type { Verdict } from '../core/verdict.ts';
import { decodeMoves, dropEmpty, makeBound } from './row-codec.ts';
import type { BotRecord, MatchRecord, MatchStatus, ResultRow, ResultSummary, ScrambleRecord } from './types.ts';

/** An `arena.bots` row. */
export interface BotRow {
  name: string;
  kind: 'command' | 'remote';
  cmd: string | null;
  cwd: string | null;
  stdio: boolean | null;
  token_hash: string | null;
  created_at: Date;
}

/** An `arena.matches` row (the columns the store reads). */
export interface MatchRow {
  id: number;
  config: unknown;
  seed: string;
  generator_version: string;
  bots: string[];
  status: MatchStatus;
  created_at: Date;
}

/** An `arena.scrambles` row. */
export interface ScrambleRow {
  id: number;
  match_id: number;
  idx: number;
  state: PuzzleState;
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
  claimed_optimal: boolean | null;
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

/** A result joined with its scramble, with its stored moves. */
export interface ResultJoinRow extends SummaryRow {
  moves_kind: 'text' | 'pairs' | 'json';
  moves: string;
}

const SUMMARY_COLUMNS = `r.scramble_id, r.bot, r.verdict, r.move_count, r.wall_ms, r.cpu_ms, r.reported_ms,
         r.claimed_optimal, r.note, r.nodes, r.error_index, r.error, r.worker, r.cpu,
         s.match_id, s.idx, s.puzzle_class, s.optimal, s.lower_bound`;
const FROM_RESULTS = 'FROM arena.results r JOIN arena.scrambles s ON s.id = r.scramble_id';
/** Results with their scramble's columns and their moves. */
export const RESULT_SELECT = `SELECT ${SUMMARY_COLUMNS}, r.moves_kind, r.moves ${FROM_RESULTS}`;
/** Results with their scramble's columns, without moves. */
export const SUMMARY_SELECT = `SELECT ${SUMMARY_COLUMNS} ${FROM_RESULTS}`;

/** A bot row as a record. */
export function toBot(row: BotRow): BotRecord {
  return dropEmpty<BotRecord>({
    name: row.name,
    kind: row.kind,
    cmd: row.cmd,
    cwd: row.cwd,
    stdio: row.stdio,
    tokenHash: row.token_hash,
    createdAt: row.created_at.toISOString(),
  });
}

/** A match row as a record. */
export function toMatch(row: MatchRow): MatchRecord {
  return {
    id: row.id,
    config: row.config,
    seed: row.seed,
    generatorVersion: row.generator_version,
    bots: row.bots,
    status: row.status,
    createdAt: row.created_at.toISOString(),
  };
}

/** A scramble row as a record. */
export function toScramble(row: ScrambleRow): ScrambleRecord {
  return {
    id: row.id,
    matchId: row.match_id,
    index: row.idx,
    state: row.state,
    puzzleClass: row.puzzle_class,
    bound: makeBound(row.optimal, row.lower_bound),
    ...(row.bound_note !== null ? { boundNote: row.bound_note } : {}),
  };
}

/** A joined result row as a result with its moves. */
export function toResult(row: ResultJoinRow): ResultRow {
  const moves = row.moves_kind === 'json' ? (JSON.parse(row.moves) as string) : decodeMoves(row.moves_kind, row.moves);
  return { ...toSummary(row), moves };
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
    claimedOptimal: row.claimed_optimal,
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
