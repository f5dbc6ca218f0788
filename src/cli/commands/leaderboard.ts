import type { Command } from 'commander';
import { buildLeaderboard, type ClassBoard } from '../../referee/leaderboard.ts';
import { openStore } from '../context.ts';
import { ms, num, renderTable } from '../table.ts';

/** Typed options of `arena leaderboard`. */
export interface LeaderboardOptions {
  readonly puzzleClass?: string;
  readonly db?: string;
  readonly json: boolean;
}

/** Reads every result (optionally one class) and fits the ratings. */
export async function leaderboardAction(o: LeaderboardOptions): Promise<{ boards: ClassBoard[]; text: string }> {
  const { store } = openStore(o.db);
  try {
    // A kind name selects every class of that kind (class names start with the kind); a full class name, exactly one.
    const c = o.puzzleClass;
    const rows = (await store.allSummaries()).filter((r) => !c || r.puzzleClass === c || r.puzzleClass.startsWith(`${c} `));
    const boards = buildLeaderboard(rows);
    if (o.json) return { boards, text: JSON.stringify(boards) + '\n' };
    if (boards.length === 0) return { boards, text: o.puzzleClass ? `no results for ${o.puzzleClass}\n` : 'no results yet: run arena match first\n' };
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
    return { boards, text: parts.join('\n\n') + '\n' };
  } finally {
    await store.close();
  }
}

/** Registers `arena leaderboard`. */
export function registerLeaderboard(program: Command, print: (text: string) => void): void {
  program
    .command('leaderboard')
    .description('Bradley–Terry ratings per puzzle class from every head-to-head scramble in the database')
    .option('--puzzle <class>', 'one puzzle class, e.g. "sliding 4x4" or "hanoi 12"')
    .option('--db <file>', 'results database (default ARENA_DB or ./leaderboard.db)')
    .option('--json', 'machine-readable output')
    .action(async (f: { puzzle?: string; db?: string; json?: boolean }) =>
      print((await leaderboardAction({ ...(f.puzzle ? { puzzleClass: f.puzzle } : {}), ...(f.db ? { db: f.db } : {}), json: Boolean(f.json) })).text),
    );
}
