import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { listBots } from '../../app/bots/bot-registry.ts';
import { parseLadderClasses } from '../../app/ladder/ladder-classes.ts';
import { runLadder } from '../../app/ladder/ladder.ts';
import { jsonText } from '../../app/records/json-text.ts';
import { ladderView, type LadderView } from '../../app/ladder/ladder-status.ts';
import { RECORDS, sealingNotice } from '../../app/seal-keys.ts';
import { withApp } from '../context.ts';
import { must } from '../errors.ts';
import { withInterrupt } from '../interrupt.ts';
import { commandSettings, durationFlag, intFlag, seedFlag, settingOptions } from '../parse-flags.ts';
import { num, renderTable } from '../table.ts';

/** The ladder's own flags; its settings (time limit, memory, disk budget, --no-sandbox) are the schema's. */
interface LadderFlags {
  db?: string;
  puzzle?: string[];
  bot?: string[];
  budget?: string;
  scrambles?: string;
  target?: string;
  minGames?: string;
  maxGames?: string;
  seed?: string;
  poll?: string;
}

/** The ladder's defaults, said once (flags' help and docs/ladder.md quote them). */
export const LADDER_DEFAULTS = { budget: 200, scrambles: 10, target: 200, minGames: 10, maxGames: 100, pollMs: 2000 } as const;

const collect = (value: string, list: string[] | undefined) => [...(list ?? []), value];

/** An interval width or a rating as whole Elo points. */
const elo = (x: number) => (Number.isFinite(x) ? num(x, 0) : x > 0 ? '∞' : '-∞');

/** `arena ladder status` as text. */
export function formatLadder(v: LadderView): string {
  const out: string[] = [];
  const a = v.activity;
  if (!a) return 'the ladder has not run on this database yet: start it with arena ladder\n';
  out.push(`ladder ${a.state} (pid ${a.pid}, as of ${a.at}): ${a.doing}`);
  out.push(`  why: ${a.why}`);
  if (v.pace) out.push(`  pace: ${num(v.pace.perMinute, 1)} games per minute (${v.pace.games} games in the last ${num(v.pace.minutes, 1)} min)`);
  out.push(`  placement: interval at most ${a.rule.targetWidth} Elo wide after at least ${a.rule.minGames} games, or ${a.rule.maxGames} games; upkeep budget left: ${a.budgetLeft} scrambles`);
  for (const c of v.classes) {
    out.push('', c.puzzleClass);
    if (c.ranking.length === 0) out.push('  no ladder games yet');
    else {
      const rows = [['#', 'version', 'rating', '95% interval', 'games', 'solve rate', 'status']];
      c.ranking.forEach((r, i) => rows.push([String(i + 1), r.label, elo(r.rating), `${elo(r.low)} .. ${elo(r.high)}`, String(r.games), `${Math.round(r.solveRate * 100)}%`, r.status]));
      out.push(renderTable(rows, new Set([0, 2, 4, 5])).replace(/\n$/, ''));
    }
    for (const p of c.placing) out.push(`  placing ${p.label}: ${p.why}`);
  }
  const failed = v.versions.filter((x) => x.current && x.status === 'failed');
  if (failed.length) out.push('', 'not played:', ...failed.map((x) => `  ${x.bot} v${x.number}: ${x.note ?? 'failed'}`));
  if (v.recent.length) {
    out.push('', 'recent games:');
    for (const g of v.recent) out.push(`  ${g.matchId !== undefined ? `match ${g.matchId}` : 'not started'}  ${g.puzzleClass}  ${g.purpose}: ${g.labels.join(' vs ')}`);
  }
  return out.join('\n') + '\n';
}

/** Registers `arena ladder` and `arena ladder status`. */
export function registerLadder(program: Command, print: (text: string) => void, info: (text: string) => void): void {
  const ladder = program.command('ladder').description(summaryOf('ladder'));
  settingOptions(ladder, 'ladder')
    .option('--db <file|url>', 'results database: a file, or postgres://… (jobs then go to arena workers) (default ARENA_DB or ./leaderboard.db)')
    .option('--puzzle <class>', 'a class to keep, e.g. "sliding 3x3"; repeat for more (default: sliding 3x3, 4x4, 10x10, hanoi 12, swaps 10x10, warehouse 16)', collect)
    .option('--bot <name>', 'a built-in or registered bot on the field; repeat for more (default: every built-in bot); registered bots are always on it', collect)
    .option('--budget <n>', `upkeep scrambles this run may play between placements (default ${LADDER_DEFAULTS.budget}; 0: placements only)`)
    .option('--scrambles <n>', `scrambles per ladder game (default ${LADDER_DEFAULTS.scrambles})`)
    .option('--target <elo>', `a bot is placed in a class once its 95% interval is at most this wide (default ${LADDER_DEFAULTS.target})`)
    .option('--min-games <n>', `…after at least this many games there (default ${LADDER_DEFAULTS.minGames})`)
    .option('--max-games <n>', `…or after this many, however wide (default ${LADDER_DEFAULTS.maxGames})`)
    .option('--seed <S>', 'the ladder\'s seed on its first run (default a random one; stored, later runs continue it)')
    .option('--poll <t>', 'how often an idle ladder looks at the field again, with its unit (default 2s); a registration wakes it at once')
    .action(async (f: LadderFlags) => {
      const classes = must(parseLadderClasses(f.puzzle));
      const count = (name: string, v: string | undefined, max: number) => intFlag(name, v, { min: 0, max });
      const rule = {
        targetWidth: intFlag('target', f.target, { min: 1, max: 100_000 }) ?? LADDER_DEFAULTS.target,
        minGames: count('min-games', f.minGames, 1_000_000) ?? LADDER_DEFAULTS.minGames,
        maxGames: intFlag('max-games', f.maxGames, { min: 1, max: 1_000_000 }) ?? LADDER_DEFAULTS.maxGames,
      };
      const options = {
        classes,
        bots: f.bot ?? [],
        budget: count('budget', f.budget, 1_000_000_000) ?? LADDER_DEFAULTS.budget,
        scrambles: intFlag('scrambles', f.scrambles, { min: 1, max: 10_000 }) ?? LADDER_DEFAULTS.scrambles,
        rule,
        settings: commandSettings(f, 'ladder'),
        pollMs: durationFlag('poll', f.poll, { min: 100, max: 3_600_000 }, 2000) ?? LADDER_DEFAULTS.pollMs,
        ...(seedFlag(f.seed) !== undefined ? { seed: seedFlag(f.seed)! } : {}),
      };
      const run = await withInterrupt(
        () => info('stopping the ladder: the game in play is interrupted and resumed by the next run (Ctrl-C again to force)'),
        (signal) =>
          withApp(f.db, async (ctx) => {
            const sealing = sealingNotice(ctx);
            if (sealing) info(sealing);
            const bots = options.bots.length ? options.bots : (await listBots(ctx)).filter((b) => b.kind === 'built-in').map((b) => b.name);
            info(`ladder on ${ctx.dbLocation}: ${classes.map((c) => c.name).join(', ')}; field ${bots.join(', ')} and every registered bot`);
            return must(await runLadder(ctx, { ...options, bots }, { signal, event: info }));
          }, RECORDS),
      );
      print(`ladder stopped: ${run.games} game(s), ${run.checks} check(s), ${run.placed} placement(s) this run; the same command continues\n`);
    });
  ladder
    .command('status')
    .description('what the ladder is doing and why, each class\'s ranking with intervals, bots being placed, recent games')
    .option('--db <file|url>', 'results database (default ARENA_DB or ./leaderboard.db)')
    .option('--json', 'machine-readable output')
    .action(async (f: { db?: string; json?: boolean }, cmd: Command) => {
      // `ladder` has --db too, and commander gives a flag after `status` to the parent when both know it.
      const db = f.db ?? (cmd.parent?.opts() as { db?: string } | undefined)?.db;
      const view = await withApp(db, (ctx) => ladderView(ctx));
      print(f.json ? jsonText(view) + '\n' : formatLadder(view));
    });
}
