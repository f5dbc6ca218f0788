/**
 * Results out of the database, one row per result, for spreadsheets and scripts (`arena export`), and the
 * leaderboard as rows (`arena leaderboard --format csv`). The rows carry the same numbers the reports show.
 */
import { scrambleNumber } from '../../core/scramble-number.ts';
import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { roundMs } from '../../referee/match-report.ts';
import { claimContradicted } from '../../referee/scrambles/scramble-report.ts';
import type { WireMoves } from '../../core/types.ts';
import type { ResultSummary, Store } from '../../store/types.ts';
import type { AppContext } from '../context.ts';
import type { ClassBoard } from './leaderboard.ts';

/** One result as exported. Empty optional values are null. */
export interface ExportRow {
  readonly match: number;
  /** The scramble's number, from 1, as on every surface. */
  readonly scramble: number;
  readonly puzzle_class: string;
  readonly bot: string;
  readonly verdict: string;
  /** Legal moves applied, as the referee counted them. */
  readonly moves: number;
  /** The exact optimum, when known. */
  readonly optimal: number | null;
  readonly lower_bound: number;
  /** Solved results: moves minus the optimum, or minus the lower bound where only that is known. */
  readonly gap: number | null;
  readonly wall_ms: number;
  /** CPU time of the bot's processes over the solve; null where not measured (remote bots, no /proc). */
  readonly cpu_ms: number | null;
  readonly reported_ms: number | null;
  readonly claimed_optimal: boolean | null;
  /** True when the bot claimed optimal and the exact optimum refutes it. */
  readonly claim_refuted: boolean;
  readonly nodes: number | null;
  readonly error_index: number | null;
  readonly error: string | null;
  readonly note: string | null;
}

/**
 * One exported result: its row and, with --with-moves, its answer as stored (notation text, or swap pairs
 * as JSON) in pieces of at most a block, read afresh from the store on each call, so an answer of any
 * length goes out without being held (a writer that must look at it before writing it may read it twice).
 */
export interface ExportItem {
  readonly row: ExportRow;
  readonly solution?: () => AsyncIterable<string>;
}

/** What to export. */
export interface ExportOptions {
  /** One match, or every match when absent. */
  readonly match?: number;
  /** Include each answer's moves (can be large: a 24-disc Hanoi answer is 33 MB). */
  readonly withMoves?: boolean;
}

function toRow(r: ResultSummary): ExportRow {
  const gap = r.verdict === 'solved' ? r.moveCount - (r.bound.optimal ?? r.bound.lowerBound) : null;
  return {
    match: r.matchId,
    scramble: scrambleNumber(r.scrambleIndex),
    puzzle_class: r.puzzleClass,
    bot: r.bot,
    verdict: r.verdict,
    moves: r.moveCount,
    optimal: r.bound.optimal ?? null,
    lower_bound: r.bound.lowerBound,
    gap,
    // Rounded as the reports round them, so an export and `arena show --json` give the same numbers.
    wall_ms: roundMs(r.wallMs),
    cpu_ms: r.cpuMs !== undefined ? roundMs(r.cpuMs) : null,
    reported_ms: r.reportedMs !== undefined ? roundMs(r.reportedMs) : null,
    claimed_optimal: r.claimedOptimal ?? null,
    claim_refuted: claimContradicted(r, r.bound),
    nodes: r.nodes ?? null,
    error_index: r.errorIndex ?? null,
    error: r.error ?? null,
    note: r.note ?? null,
  };
}

/**
 * The stored text of one answer from its pieces: notation verbatim, pairs as one JSON array (the pieces'
 * arrays joined, exactly as JSON.stringify writes the whole answer). An unknown result is empty text.
 */
export async function* solutionText(pieces: AsyncIterable<WireMoves>): AsyncGenerator<string> {
  let open = false;
  let any = false;
  for await (const piece of pieces) {
    if (typeof piece === 'string') {
      if (piece) yield piece;
      continue;
    }
    if (!open) yield '[';
    open = true;
    if (piece.length === 0) continue;
    const inner = JSON.stringify(piece).slice(1, -1);
    yield any ? `,${inner}` : inner;
    any = true;
  }
  if (open) yield ']';
}

function itemOf(store: Store, r: ResultSummary, withMoves: boolean): ExportItem {
  const row = toRow(r);
  return withMoves ? { row, solution: () => solutionText(store.readMoves(r.scrambleId, r.bot)) } : { row };
}

/**
 * The rows of one match, or of every match (oldest first), a match at a time; answers (with their moves)
 * stream from the store as each row is written, so memory stays bounded whatever their length. Rejects an
 * unknown match at once.
 */
export async function exportResults(ctx: AppContext, o: ExportOptions): Promise<Result<AsyncIterable<ExportItem[]>>> {
  let ids: number[];
  if (o.match !== undefined) {
    if (!(await ctx.store.getMatch(o.match))) return reject('no-match', `no match with id ${o.match}`);
    ids = [o.match];
  } else {
    ids = (await ctx.store.listMatches()).map((m) => m.id).reverse();
  }
  const withMoves = Boolean(o.withMoves);
  async function* batches(): AsyncIterable<ExportItem[]> {
    for (const id of ids) yield (await ctx.store.listSummaries(id)).map((r) => itemOf(ctx.store, r, withMoves));
  }
  return { ok: true, value: batches() };
}

/** One bot of one class on the leaderboard, as exported. */
export interface LeaderboardRow {
  readonly puzzle_class: string;
  readonly rank: number;
  readonly bot: string;
  readonly rating: number;
  readonly rating_low: number;
  readonly rating_high: number;
  readonly games: number;
  readonly results: number;
  readonly declined: number;
  readonly solve_rate: number;
  readonly mean_moves: number | null;
  readonly mean_gap: number | null;
  readonly median_wall_ms: number | null;
  /** Fewer head-to-head games than an established entry needs: ranked after every established one. */
  readonly provisional: boolean;
}

/** The leaderboard flattened to rows, class by class, best first. */
export function leaderboardRows(boards: readonly ClassBoard[]): LeaderboardRow[] {
  return boards.flatMap((b) =>
    b.entries.map((e, i) => ({
      puzzle_class: b.puzzleClass,
      rank: i + 1,
      bot: e.bot,
      rating: round1(e.rating),
      rating_low: round1(e.low),
      rating_high: round1(e.high),
      games: e.games,
      results: e.results,
      declined: e.declined,
      solve_rate: e.solveRate,
      mean_moves: e.meanMoves === null ? null : round1000(e.meanMoves),
      mean_gap: e.meanGap === null ? null : round1000(e.meanGap),
      median_wall_ms: e.medianWallMs === null ? null : roundMs(e.medianWallMs),
      provisional: e.provisional,
    })),
  );
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round1000 = (x: number) => Math.round(x * 1000) / 1000;
