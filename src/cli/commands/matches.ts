import type { Command } from 'commander';
import { distributedProgress } from '../../app/distributed.ts';
import { listMatches, showMatch } from '../../app/matches.ts';
import { withApp } from '../context.ts';
import { must } from '../errors.ts';
import { formatMatchReport } from '../format-report.ts';
import { intFlag } from '../parse-flags.ts';
import { renderTable } from '../table.ts';
import { formatProgress } from './distributed-match.ts';

/** Registers `arena matches` and `arena show <id>`. */
export function registerMatches(program: Command, print: (text: string) => void): void {
  program
    .command('matches')
    .description('the most recent matches, newest first')
    .option('--limit <n>', 'how many (default 20)')
    .option('--db <file>', 'results database (default ARENA_DB or ./leaderboard.db)')
    .option('--json', 'machine-readable output')
    .action(async (f: { limit?: string; db?: string; json?: boolean }) => {
      const limit = intFlag('limit', f.limit, { min: 1, max: 1_000_000 }) ?? 20;
      const list = await withApp(f.db, (ctx) => listMatches(ctx, { limit }));
      if (f.json) return print(JSON.stringify(list) + '\n');
      if (list.length === 0) return print('no matches yet: run arena match first\n');
      const rows = [['id', 'status', 'created', 'scrambles', 'from', 'seed', 'bots']];
      for (const m of list) {
        rows.push([String(m.id), m.status, m.createdAt.slice(0, 19).replace('T', ' '), String(m.scrambles ?? '-'), m.source ?? '-', m.seed, m.bots.join(', ')]);
      }
      print(renderTable(rows, new Set([0, 3])) + '\n');
    });
  program
    .command('show')
    .description('the report of one match (running, interrupted or finished)')
    .argument('<id>', 'match id (arena matches lists them)')
    .option('--db <file>', 'results database (default ARENA_DB or ./leaderboard.db)')
    .option('--json', 'print {"match","results":[...],"summary"} instead of tables')
    .action(async (id: string, f: { db?: string; json?: boolean }) => {
      const matchId = intFlag('id', id, { min: 1, max: Number.MAX_SAFE_INTEGER })!;
      const { report, progress } = await withApp(f.db, async (ctx) => {
        const report = must(await showMatch(ctx, matchId));
        // A distributed match: say how its jobs and workers stand.
        const progress = must(await distributedProgress(ctx, matchId));
        return { report, progress };
      });
      if (f.json) return print(JSON.stringify(progress ? { ...report, distributed: progress } : report) + '\n');
      print((progress ? formatProgress(matchId, progress) + '\n' : '') + formatMatchReport(report));
    });
}
