/**
 * Every command's name, the words of its usage and its one-line summary, with the module that defines it.
 * main.ts loads only the module of the command being run (a command's module pulls in the database driver,
 * the web server or the job queue only when that command needs them), so `arena --help` and a quick query
 * start in a fraction of the time; the summaries live here once and each command module reads its own.
 */
import type { Command } from 'commander';

/** One command as `arena --help` lists it. */
export interface CommandSummary {
  readonly name: string;
  /** What follows the name in the listing, e.g. `[options] <kind>`. */
  readonly usage: string;
  readonly summary: string;
}

/** The commands in the order `arena --help` lists them. */
export const COMMANDS: readonly CommandSummary[] = [
  { name: 'scramble', usage: '[options] <kind>', summary: 'print seeded, uniformly random solvable scrambles (JSON Lines with --json)' },
  { name: 'verify', usage: '[options]', summary: 'replay a solution on a scramble and print the verdict (exit 0 only when solved)' },
  { name: 'match', usage: '[options] [bots...]', summary: 'play bots on identical scrambles; validate, record and report (one bot = a benchmark run)' },
  { name: 'matches', usage: '[options]', summary: 'past matches, newest first: when, puzzle, bots, scrambles done, status, seed, who leads each pair' },
  { name: 'show', usage: '[options] <match>', summary: 'the report of one match (running, interrupted or finished), from the database alone' },
  { name: 'replay', usage: '[options] <match> <scramble> [bot]', summary: 'play a stored answer on the board, re-validating every move (two bots side by side with --bot2)' },
  {
    name: 'export',
    usage: '[options] [match]',
    summary: 'one row per result (match, scramble, class, bot, verdict, moves, optimum or bound, gap, times, claims, nodes, error) as CSV or JSON Lines',
  },
  {
    name: 'audit',
    usage: '[options] [match]',
    summary: 're-check stored results: scrambles regenerated, every answer replayed, every pair present, seals checked with the key',
  },
  { name: 'bot', usage: '', summary: 'register, list, remove and check solver bots' },
  {
    name: 'prepare',
    usage: '[options] [bots...]',
    summary: 'build what built-in bots need at full strength (pattern databases) into the store they read confined; resumes after Ctrl-C',
  },
  { name: 'leaderboard', usage: '[options]', summary: 'Bradley–Terry ratings per puzzle class from every head-to-head scramble in the database' },
  {
    name: 'ladder',
    usage: '[options]',
    summary: 'a standing ladder: places every newly registered or changed bot against the field and keeps the ratings current (arena ladder status: what it does and why)',
  },
  { name: 'user', usage: '', summary: 'add, list and revoke participants, who sign in on the web and use the API with their token' },
  { name: 'serve', usage: '[options]', summary: 'the leaderboard, matches, replays and live progress in a browser (read-only; sign-in with --private)' },
  { name: 'submit', usage: '[options] [dir]', summary: 'pack a bot folder (or take an archive), upload it to an arena and follow it until it is placed or failed' },
  { name: 'withdraw', usage: '[options] <bot>', summary: 'take your submitted bot off an arena (its results stay)' },
  { name: 'login', usage: '[options]', summary: 'check your token against an arena and store it for arena submit (readable by you only)' },
  { name: 'backup', usage: '[options] <file>', summary: 'copy the results database into one new, self-contained file; safe while a match is running' },
  { name: 'worker', usage: '[options]', summary: 'play jobs of distributed matches on this machine until stopped (Ctrl-C hands unfinished jobs back)' },
  { name: 'workers', usage: '[options]', summary: 'the live workers of a PostgreSQL database and the jobs they hold' },
];

/** The summary of command `name` (a programmer error when it is not in {@link COMMANDS}). */
export function summaryOf(name: string): string {
  const c = COMMANDS.find((x) => x.name === name);
  if (!c) throw new Error(`command ${name} is missing from src/cli/catalog.ts`);
  return c.summary;
}

/**
 * The command a command line runs: its first word that is not an option, when that word names a command.
 * Top-level options take no values, so the first bare word is the command (or `help`'s argument).
 */
export function commandOf(argv: readonly string[]): string | undefined {
  const words = argv.filter((a) => !a.startsWith('-'));
  // `arena help match` shows match's own help, so it needs match's real definition.
  const word = words[0] === 'help' ? words[1] : words[0];
  return word !== undefined && COMMANDS.some((c) => c.name === word) ? word : undefined;
}

/**
 * Lists every command in `program`'s help without loading any of them: a stand-in per command that is
 * never run (the real one is loaded when its name is on the command line).
 */
export function listAll(program: Command): void {
  for (const c of COMMANDS) program.command(c.name).description(c.summary);
  program.configureHelp({
    subcommandTerm: (cmd) => {
      const c = COMMANDS.find((x) => x.name === cmd.name());
      return c ? `${c.name}${c.usage ? ` ${c.usage}` : ''}` : cmd.name() + (cmd.registeredArguments.length ? ' [command]' : '');
    },
  });
}
