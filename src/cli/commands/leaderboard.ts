import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { leaderboard, PROVISIONAL_GAMES, type ClassBoard } from '../../app/records/leaderboard.ts';
import { leaderboardRows, type LeaderboardRow } from '../../app/records/export.ts';
import { percentText } from '../../app/records/report-text.ts';
import { withApp } from '../context.ts';
import { toCsv } from '../csv.ts';
import { formatFlag, openOut } from './export.ts';

const LEADERBOARD_COLUMNS: readonly (keyof LeaderboardRow & string)[] = [
  'puzzle_class', 'rank', 'bot', 'rating', 'rating_low', 'rating_high', 'games', 'results', 'declined', 'solve_rate',
  'mean_moves', 'mean_gap', 'median_wall_ms', 'provisional',
];
import { ms, num, renderTable } from '../table.ts';

/** The leaderboard as tables, one per puzzle class. */
export function formatLeaderboard(boards: readonly ClassBoard[], puzzleClass?: string): string {
  if (boards.length === 0) return puzzleClass ? `no results for ${puzzleClass}\n` : 'no results yet: run arena match first\n';
  const parts = boards.map((b) => {
    const rows = [['#', 'bot', 'rating', '95% interval', 'games', 'solve rate', 'mean moves', 'mean gap', 'median time']];
    b.entries.forEach((e, i) =>
      rows.push([
        String(i + 1),
        e.provisional ? `${e.bot} (provisional)` : e.bot,
        num(e.rating, 0),
        `${num(e.low, 0)} .. ${num(e.high, 0)}`,
        String(e.games),
        percentText(e.solveRate),
        num(e.meanMoves),
        num(e.meanGap),
        ms(e.medianWallMs),
      ]),
    );
    return `${b.puzzleClass}\n${renderTable(rows, new Set([0, 2, 4, 5, 6, 7, 8]))}`;
  });
  const note = boards.some((b) => b.entries.some((e) => e.provisional))
    ? `\nprovisional: fewer than ${PROVISIONAL_GAMES} head-to-head games; ranked after every established bot of its class\n`
    : '';
  return parts.join('\n\n') + '\n' + note;
}

/** Registers `arena leaderboard`. */
export function registerLeaderboard(program: Command, print: (text: string) => void, info: (text: string) => void): void {
  program
    .command('leaderboard')
    .description(summaryOf('leaderboard'))
    .option('--puzzle <class>', 'a kind (every class of it) or one class, e.g. "sliding 4x4" or "hanoi 12"')
    .option('--db <file>', 'results database (default ARENA_DB or ./leaderboard.db)')
    .option('--format <f>', 'table (default), csv (one row per class and bot) or json')
    .option('--out <file>', 'write to a file instead of stdout')
    .option('--json', 'machine-readable output (same as --format json)')
    .action(async (f: { puzzle?: string; db?: string; json?: boolean; format?: string; out?: string }) => {
      const format = f.json ? 'json' : formatFlag(f.format, ['table', 'csv', 'json'] as const, 'table');
      const out = openOut(f.out, print);
      try {
        const boards = await withApp(f.db, (ctx) => leaderboard(ctx, f.puzzle ? { puzzleClass: f.puzzle } : {}));
        if (format === 'json') out.write(JSON.stringify(boards) + '\n');
        else if (format === 'csv') out.write(toCsv(leaderboardRows(boards), LEADERBOARD_COLUMNS, true));
        else out.write(formatLeaderboard(boards, f.puzzle));
      } finally {
        out.close();
      }
      const where = out.written();
      if (where) info(`wrote the leaderboard as ${format} ${where}`);
    });
}
