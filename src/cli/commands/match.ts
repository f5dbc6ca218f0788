import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { parseListen, type ListenAddress } from '../../app/listen.ts';
import { jsonText } from '../../app/records/json-text.ts';
import { writeRemedy } from '../../app/context.ts';
import { scrambleNumber } from '../../core/scramble-number.ts';
import { mergeSettings, startOptionsOf } from '../../app/matches/match-options.ts';
import { resumeMatch, startMatch, type MatchIo, type MatchOutcome, type StartMatchOptions } from '../../app/matches/matches.ts';
import { loadPreset } from '../../app/matches/presets.ts';
import { PROJECT_ROOT } from '../../app/project-root.ts';
import { keyMadeNotice, RECORDS, sealingWarning } from '../../app/seal-keys.ts';
import { withApp } from '../context.ts';
import { shellQuote } from '../shell-quote.ts';
import { CliError, must } from '../errors.ts';
import { formatMatchReport } from '../format-report.ts';
import { commandSettings, intFlag, settingOptions } from '../parse-flags.ts';
import { runDistributedMatch, type Out } from './distributed-match.ts';

/**
 * The flags of `arena match` that are not match settings (those are the settings schema's, read by
 * settingOptions; commander hands them over under the same object).
 */
interface MatchFlags {
  preset?: string;
  resume?: string;
  db?: string;
  listen?: string;
  json?: boolean;
  distributed?: boolean;
  batch?: string;
  quiet?: boolean;
  showScrambles?: boolean;
}

/** What `arena match` was asked to do. */
type MatchCommand =
  | { readonly resume: number; readonly listen?: ListenAddress; readonly unconfined?: boolean }
  | { readonly start: StartMatchOptions };

/** Maps flags (over an optional preset) to the service's typed options. */
function matchCommand(bots: string[], f: MatchFlags): MatchCommand {
  const listen = f.listen !== undefined ? must(parseListen(f.listen)) : undefined;
  const resume = intFlag('resume', f.resume, { min: 1, max: Number.MAX_SAFE_INTEGER });
  const flags = commandSettings(f, 'match');
  if (resume !== undefined) return { resume, ...(listen ? { listen } : {}), ...(flags.unconfined ? { unconfined: true } : {}) };
  const preset = f.preset ? must(loadPreset(f.preset, PROJECT_ROOT)) : undefined;
  const start = must(startOptionsOf(bots, mergeSettings(flags, preset?.settings), preset));
  return { start: { ...start, ...(listen ? { listen } : {}) } };
}

/** How the outcome is printed, and what a resume would need repeated. */
interface OutcomeFormat {
  readonly json: boolean;
  /** Print the per-scramble table (else only the summary). */
  readonly perScramble: boolean;
  /** The flags a resume must repeat to reach the same database and remote bots, ready for the shell. */
  readonly resumeFlags: string;
  /** The database, for a message about it. */
  readonly dbLocation: string;
}

/** The printed outcome: the report, what was given up on, and how to resume. */
function formatOutcome(o: MatchOutcome, f: OutcomeFormat): { text: string; notice?: string } {
  const { run, report } = o;
  const json = f.json;
  let text = json ? jsonText(report) + '\n' : formatMatchReport(report, { perScramble: f.perScramble });
  if (!json) {
    for (const b of run.blocked) {
      const why = b.attempts === 1 ? 'did not dial in and was not waited for again' : 'failed to start twice in a row and was not started again';
      text += `\n${b.bot} ${why}: ${b.charged} scramble(s) charged crash without a start (${b.reason})\n`;
    }
  }
  if (!json) {
    for (const l of run.restartLoops) {
      const what = l.verdicts.length === 1 ? (l.verdicts[0] === 'timeout' ? 'timed out' : 'crashed') : 'timed out or crashed';
      text += `\n${l.bot} ${what} on ${l.scrambles} scrambles in a row (#${scrambleNumber(l.first)} to #${scrambleNumber(l.last)}) and was restarted after each: check the bot, or the time limit if it is too short for it\n`;
    }
  }
  if (run.status !== 'interrupted') return { text };
  if (run.storeError !== undefined) {
    // A write the database refused (a full disk): one line on stderr, after the report of what was stored.
    const resume = `arena match --resume ${run.match.id}${f.resumeFlags}`;
    const listed = run.match.status === 'running' ? ' (it stays listed as running: there was no room to mark it interrupted)' : '';
    return { text, notice: `match ${run.match.id} interrupted: the database ${f.dbLocation} could not be written (${run.storeError}); every result reported above is stored; ${writeRemedy(run.storeError)}, then finish it with: ${resume}${listed}` };
  }
  // A match stopped short cannot be finished by a resume (its missing scrambles cannot be made).
  const hint = run.stopped
    ? `match ${run.match.id} stopped short: ${run.stopped}`
    : `match ${run.match.id} interrupted; finish it with: arena match --resume ${run.match.id}${f.resumeFlags}`;
  // With --json, stdout stays one JSON document and the hint goes to stderr.
  return json ? { text, notice: hint } : { text: `${text}\n${hint}\n` };
}

/** A match run in a terminal: the entry point's signal handling, progress and printing. */
export type TerminalRun = (play: (io: MatchIo) => Promise<{ text: string; notice?: string; exitCode: number }>, opts?: { quiet?: boolean }) => Promise<void>;

/** More scrambles than this collapse to the summary on a terminal unless --scrambles is given. */
export const TERMINAL_SCRAMBLE_ROWS = 50;

/** Whether the per-scramble table is printed: asked for, or short enough, or not a terminal (logs keep all). */
export function showPerScramble(scrambles: number, o: { scrambles?: boolean; quiet?: boolean }, tty = Boolean(process.stdout.isTTY)): boolean {
  if (o.scrambles) return true;
  if (o.quiet) return false;
  return !tty || scrambles <= TERMINAL_SCRAMBLE_ROWS;
}

/**
 * The flags `arena match --resume` needs besides the id: the database (as given, or the file in use; a
 * PostgreSQL URL from ARENA_DB is left to the environment, its password is not printed) and --listen.
 */
function resumeFlags(dbFlag: string | undefined, dbLocation: string, listen: string | undefined): string {
  const db = dbFlag ?? (dbLocation.includes('://') ? undefined : dbLocation);
  return `${db !== undefined ? ` --db ${shellQuote(db)}` : ''}${listen !== undefined ? ` --listen ${shellQuote(listen)}` : ''}`;
}

/** Registers `arena match`; exit code 0 finished, 130 interrupted. */
export function registerMatch(program: Command, terminal: TerminalRun, out: Out & { setExit(code: number): void }): void {
  const match = program
    .command('match')
    .description(summaryOf('match'))
    .argument('[bots...]', 'bot names (built-in or registered); quote to pass flags: "ida-star --weight 2"');
  settingOptions(match, 'match')
    .option('--preset <name|file>', 'load defaults from matches/<name>.json')
    .option('--resume <id>', 'finish an interrupted match: play only what has no result yet')
    .option('--listen <host:port>', 'where remote bots dial in (default 127.0.0.1 on a free port)')
    .option('--db <file|url>', 'results database: a file, or postgres://… (default ARENA_DB or ./leaderboard.db)')
    .option('--json', 'print {"match","scrambles","results","summary"} instead of tables (arena show --json prints the same)')
    .option('--show-scrambles', `print the per-scramble table even above ${TERMINAL_SCRAMBLE_ROWS} scrambles on a terminal`)
    .option('--quiet', 'no start line or progress bar, and only the summary')
    .option('--distributed', 'queue the match for arena worker processes (needs --db postgres://…); Ctrl-C leaves it running')
    .option('--batch <n>', 'with --distributed: scrambles per job (default: a job takes at most about a minute)')
    .action(async (bots: string[], f: MatchFlags) => {
      const cmd = matchCommand(bots, f);
      const batch = intFlag('batch', f.batch, { min: 1, max: 10_000 });
      if (f.distributed) {
        if (f.listen !== undefined) throw new CliError('--listen does not apply to --distributed matches: workers start their bots themselves');
        const what = 'resume' in cmd ? { resume: cmd.resume } : { start: cmd.start };
        out.setExit(await runDistributedMatch(f.db, what, batch, Boolean(f.json), out));
        return;
      }
      if (batch !== undefined) throw new CliError('--batch applies only to --distributed matches');
      await terminal(
        async (io) => {
          let dbLocation = '';
          const outcome = must(
            await withApp(f.db, async (ctx) => {
              dbLocation = ctx.dbLocation;
              const warning = sealingWarning(ctx);
              if (warning) io.notice?.(warning);
              const played = await ('resume' in cmd ? resumeMatch(ctx, cmd.resume, { ...io, ...(cmd.listen ? { listen: cmd.listen } : {}), ...(cmd.unconfined ? { unconfined: true } : {}) }) : startMatch(ctx, cmd.start, io));
              const made = keyMadeNotice(ctx);
              if (played.ok && made) io.notice?.(made);
              return played;
            }, RECORDS),
          );
          const printed = formatOutcome(outcome, {
            json: Boolean(f.json),
            perScramble: showPerScramble(outcome.report.scrambles.length, { scrambles: f.showScrambles, quiet: f.quiet }),
            resumeFlags: resumeFlags(f.db, dbLocation, f.listen),
            dbLocation,
          });
          return { ...printed, exitCode: outcome.run.status === 'finished' ? 0 : outcome.run.storeError !== undefined ? 1 : 130 };
        },
        { quiet: Boolean(f.quiet) },
      );
    });
}
