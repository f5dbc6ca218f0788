import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { distributedProgress } from '../../app/matches/distributed.ts';
import { jsonText } from '../../app/records/json-text.ts';
import { botStderr, readableStderr, type BotStderrView } from '../../app/records/bot-stderr.ts';
import { listMatches, showMatch, type MatchListing } from '../../app/matches/matches.ts';
import { MATCH_STATUSES as STATUSES, type MatchStatus } from '../../app/records/records.ts';
import { scramblesText } from '../../app/records/report-text.ts';
import { withApp } from '../context.ts';
import { CliError, must } from '../errors.ts';
import { formatMatchReport } from '../format-report.ts';
import { intFlag } from '../parse-flags.ts';
import { renderTable } from '../table.ts';
import { formatProgress } from './distributed-match.ts';
import { showPerScramble } from './match.ts';

/** A match id argument, with the one-line error every command gives for a bad one. */
export function matchIdArg(text: string): number {
  const n = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || n < 1 || !Number.isSafeInteger(n)) throw new CliError(`a match id is a whole number from 1 (arena matches lists them), got "${text}"`);
  return n;
}

/** Each pair's standing: "a +5 =1 -0 b", the leader's name first when there is one. */
function standing(m: MatchListing): string {
  if (m.bots.length === 1) return '(benchmark)';
  return m.pairs
    .map((p) => (p.leader === p.b ? `${p.b} +${p.losses} =${p.draws} -${p.wins} ${p.a}` : `${p.a} +${p.wins} =${p.draws} -${p.losses} ${p.b}`))
    .join('; ');
}

/** The match list as a table. */
export function formatMatchList(list: readonly MatchListing[]): string {
  if (list.length === 0) return 'no matches found (arena match starts one)\n';
  const rows = [['id', 'when', 'puzzle', 'bots', 'scrambles', 'status', 'seed', 'result (leader first)']];
  for (const m of list) {
    rows.push([
      String(m.id),
      m.createdAt.slice(0, 16).replace('T', ' '),
      m.puzzleClasses.join(', ') || '-',
      m.bots.join(', '),
      scramblesText(m.scramblesDone, m.scrambles, m.status),
      m.status,
      m.seed,
      standing(m),
    ]);
  }
  return renderTable(rows, new Set([0, 4])) + '\n';
}

/** Bots' stderr of a match, each under a line naming the bot and what was cut. */
function formatStderr(matchId: number, views: readonly BotStderrView[]): string {
  if (views.length === 0) return `no bot wrote to stderr in match ${matchId}\n`;
  return views
    .map((v) => {
      const cut = v.cutBytes > 0 ? ` (${v.cutBytes} bytes cut between its first and last bytes)` : '';
      const text = v.text === '' ? '(nothing)\n' : v.text.endsWith('\n') ? v.text : `${v.text}\n`;
      return `== ${v.bot}: stderr in match ${matchId}${cut} ==\n${text}`;
    })
    .join('\n');
}

/** Registers `arena matches` and `arena show <match>`. */
export function registerMatches(program: Command, print: (text: string) => void): void {
  program
    .command('matches')
    .description(summaryOf('matches'))
    .option('--bot <name>', 'only matches this bot played (a name matches all its flag variants)')
    .option('--puzzle <class>', 'only matches of this puzzle class, or of any class of a kind (a kind name), e.g. "sliding 4x4"')
    .option('--status <s>', 'only running, interrupted or finished matches')
    .option('--limit <n>', 'how many (default 20)')
    .option('--db <file>', 'results database (default ARENA_DB or ./leaderboard.db)')
    .option('--json', 'machine-readable output')
    .action(async (f: { bot?: string; puzzle?: string; status?: string; limit?: string; db?: string; json?: boolean }) => {
      const limit = intFlag('limit', f.limit, { min: 1, max: 1_000_000 }) ?? 20;
      if (f.status !== undefined && !STATUSES.includes(f.status as MatchStatus)) {
        throw new CliError(`--status must be one of ${STATUSES.join(', ')}, got "${f.status}"`);
      }
      const list = await withApp(f.db, (ctx) =>
        listMatches(ctx, {
          limit,
          ...(f.bot !== undefined ? { bot: f.bot } : {}),
          ...(f.puzzle !== undefined ? { puzzleClass: f.puzzle } : {}),
          ...(f.status !== undefined ? { status: f.status as MatchStatus } : {}),
        }),
      );
      print(f.json ? JSON.stringify(list) + '\n' : formatMatchList(list));
    });
  program
    .command('show')
    .description(summaryOf('show'))
    .argument('<match>', 'match id (arena matches lists them)')
    .option('--scrambles', 'print the per-scramble table even above 50 scrambles on a terminal')
    .option('--db <file|url>', 'results database: a file, or postgres://… (default ARENA_DB or ./leaderboard.db)')
    .option('--json', 'the same document as arena match --json (with "distributed": jobs and workers, for a distributed match)')
    .option('--stderr [bot]', "instead of the report, what each bot (or this bot) wrote to stderr in the match, capped (--json: a list of {bot, head, tail, cutBytes, text})")
    .action(async (id: string, f: { scrambles?: boolean; db?: string; json?: boolean; stderr?: string | true }) => {
      const matchId = matchIdArg(id);
      if (f.stderr !== undefined) {
        // The shell holder administers their own database: every bot's stderr is theirs to read.
        const shell = { kind: 'shell' } as const;
        const views = await withApp(f.db, async (ctx) => {
          if (f.stderr !== true) return [must(await botStderr(ctx, shell, matchId, f.stderr!))];
          must(await showMatch(ctx, matchId));
          return readableStderr(ctx, shell, matchId);
        });
        return print(f.json ? JSON.stringify(views) + '\n' : formatStderr(matchId, views));
      }
      const { report, progress } = await withApp(f.db, async (ctx) => {
        const report = must(await showMatch(ctx, matchId));
        // A distributed match: say how its jobs and workers stand.
        const progress = must(await distributedProgress(ctx, matchId));
        return { report, progress };
      });
      if (f.json) return print(jsonText(progress ? { ...report, distributed: progress } : report) + '\n');
      const perScramble = showPerScramble(report.scrambles.length, { scrambles: f.scrambles });
      print((progress ? formatProgress(matchId, progress) + '\n' : '') + formatMatchReport(report, { perScramble }));
    });
}
