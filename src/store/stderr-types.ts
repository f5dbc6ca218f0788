/**
 * The bots' stderr behind the Store (issue 32): for each match and bot, what its processes wrote to stderr
 * while they played the match, joined under one cap (core/capped-text.ts) however many processes, players,
 * workers or resumes the match had. Who may read it is the app's rule (app/records/bot-stderr.ts).
 */
import type { CappedText } from '../core/capped-text.ts';

/** The stderr tables of one store. */
export interface StderrStore {
  /** Joins `text` after what is kept of `bot`'s stderr in match `matchId`, under the cap (atomically). */
  append(matchId: number, bot: string, text: CappedText): Promise<void>;
  /** What is kept of `bot`'s stderr in match `matchId`; undefined when it wrote none. */
  read(matchId: number, bot: string): Promise<CappedText | undefined>;
  /** The bots of match `matchId` that wrote to stderr, by name. */
  bots(matchId: number): Promise<string[]>;
}

/** A row of the bot_stderr table as both SQL stores read it. */
export interface StderrRow {
  readonly head: string;
  readonly tail: string;
  readonly cut_bytes: number | string;
}

/** A row as the store hands it out (PostgreSQL returns a bigint as text). */
export function toCappedText(row: StderrRow): CappedText {
  return { head: row.head, tail: row.tail, cutBytes: Number(row.cut_bytes) };
}
