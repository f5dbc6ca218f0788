/**
 * Rows of the ladder's tables to records, shared by the SQLite and PostgreSQL ladder stores (both keep
 * timestamps and lists as text, so one decoding serves both).
 */
import type { BotVersion, LadderGame, LadderPurpose, VersionStatus } from './ladder-types.ts';

/** A bot_versions row as either driver returns it (PostgreSQL bigints arrive as strings). */
export interface VersionRow {
  id: number | string;
  bot: string;
  number: number;
  hash: string;
  command: string;
  folder: string | null;
  status: string;
  note: string | null;
  classes: string;
  current: number;
  created_at: string;
  updated_at: string;
}

/** A ladder_games row. */
export interface GameRow {
  id: number | string;
  seed: string;
  puzzle_class: string;
  purpose: string;
  subject: number | string | null;
  entries: string;
  why: string;
  match_id: number | string | null;
  created_at: string;
}

/** The record of a version row. */
export function toVersion(r: VersionRow): BotVersion {
  return {
    id: Number(r.id),
    bot: r.bot,
    number: r.number,
    hash: r.hash,
    command: r.command,
    ...(r.folder !== null ? { folder: r.folder } : {}),
    status: r.status as VersionStatus,
    ...(r.note !== null ? { note: r.note } : {}),
    classes: JSON.parse(r.classes) as string[],
    current: r.current === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The record of a game row. */
export function toGame(r: GameRow): LadderGame {
  return {
    id: Number(r.id),
    seed: r.seed,
    puzzleClass: r.puzzle_class,
    purpose: r.purpose as LadderPurpose,
    ...(r.subject !== null ? { subject: Number(r.subject) } : {}),
    entries: JSON.parse(r.entries) as LadderGame['entries'],
    why: r.why,
    ...(r.match_id !== null ? { matchId: Number(r.match_id) } : {}),
    createdAt: r.created_at,
  };
}
