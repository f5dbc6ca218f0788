import type { Command } from 'commander';
import { leaderboard, type ClassBoard } from '../../app/leaderboard.ts';
import { withApp } from '../context.ts';
import { ms, num, renderTable } from '../table.ts';

/** The leaderboard as tables, one per puzzle class. */
export function formatLeaderboard(boards: readonly ClassBoard[], puzzleClass?: string): string {
  if (boards.length === 0) return puzzleClass ? `no results for ${puzzleClass}\n` : 'no results yet: run arena match first\n';
  const parts = boards.map((b) => {
    const rows = [['#', 'bot', 'rating', '95% interval', 'games', 'solve rate', 'mean moves', 'mean gap', 'median time']];
    b.entries.forEach((e, i) =>
      rows.push([
        String(i + 1),
        e.bot,
        num(e.rating, 0),
        `${num(e.low, 0)} .. ${num(e.high, 0)}`,
        String(e.games),
        `${(e.solveRate * 100).toFixed(0)}%`,
        num(e.meanMoves),
        num(e.meanGap),
        ms(e.medianWallMs),
      ]),
    );
    return `${b.puzzleClass}\n${renderTable(rows, new Set([0, 2, 4, 5, 6, 7, 8]))}`;
  });
  return parts.join('\n\n') + '\n';
}

/** Registers `arena leaderboard`. */
export function registerLeaderboard(program: Command, print: (text: string) => void): void {
  program
    .command('leaderboard')
    .description('Bradley–Terry ratings per puzzle class from every head-to-head scramble in the database')
    .option('--puzzle <class>', 'a kind (every class of it) or one class, e.g. "sliding 4x4" or "hanoi 12"')
    .option('--db <file>', 'results database (default ARENA_DB or ./leaderboard.db)')
    .option('--json', 'machine-readable output')
    .action(async (f: { puzzle?: string; db?: string; json?: boolean }) => {
      const boards = await withApp(f.db, (ctx) => leaderboard(ctx, f.puzzle ? { puzzleClass: f.puzzle } : {}));
      print(f.json ? JSON.stringify(boards) + '\n' : formatLeaderboard(boards, f.puzzle));
    });
}
