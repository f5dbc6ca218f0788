/**
 * How each command's module registers itself. main.ts loads only the module of the command on the command
 * line (catalog.ts finds it); a module that defines two commands (matches/show, worker/workers) serves both.
 */
import type { Command } from 'commander';
import type { TerminalRun } from './commands/match.ts';

/** What main.ts hands every command: the only ways to print, set the exit code and run a terminal match. */
export interface CliIo {
  print(text: string): void;
  /** Writes text to stdout as it is (no newline added): a long line written in pieces. */
  write(text: string): void;
  info(text: string): void;
  setExit(code: number): void;
  readonly terminal: TerminalRun;
}

type Loader = (program: Command, io: CliIo) => Promise<void>;

const LOADERS: Record<string, Loader> = {
  scramble: async (p, io) => (await import('./commands/scramble.ts')).registerScramble(p, io.print),
  verify: async (p, io) => (await import('./commands/verify.ts')).registerVerify(p, io.print, io.setExit),
  match: async (p, io) => (await import('./commands/match.ts')).registerMatch(p, io.terminal, io),
  matches: async (p, io) => (await import('./commands/matches.ts')).registerMatches(p, io.print),
  replay: async (p, io) => (await import('./commands/replay.ts')).registerReplay(p, io.print, io.setExit, io.info),
  export: async (p, io) => (await import('./commands/export.ts')).registerExport(p, io.write, io.info),
  audit: async (p, io) => (await import('./commands/audit.ts')).registerAudit(p, io.print, io.setExit),
  bot: async (p, io) => (await import('./commands/bot.ts')).registerBot(p, io.print, io.setExit, io.info),
  leaderboard: async (p, io) => (await import('./commands/leaderboard.ts')).registerLeaderboard(p, io.print, io.info),
  ladder: async (p, io) => (await import('./commands/ladder.ts')).registerLadder(p, io.print, io.info),
  user: async (p, io) => (await import('./commands/user.ts')).registerUser(p, io.print),
  serve: async (p, io) => (await import('./commands/serve.ts')).registerServe(p, io.print, io.info),
  submit: async (p, io) => (await import('./commands/submit.ts')).registerSubmit(p, io.print, io.info, io.setExit),
  withdraw: async (p, io) => (await import('./commands/withdraw.ts')).registerWithdraw(p, io.print),
  login: async (p, io) => (await import('./commands/login.ts')).registerLogin(p, io.print, io.info),
  backup: async (p, io) => (await import('./commands/backup.ts')).registerBackup(p, io.print),
  prepare: async (p, io) => (await import('./commands/prepare.ts')).registerPrepare(p, io.print, io.setExit, io.info),
  worker: async (p, io) => (await import('./commands/worker.ts')).registerWorker(p, io.print, io.info),
};
LOADERS.show = LOADERS.matches!;
LOADERS.workers = LOADERS.worker!;

/** Loads and registers the module that defines command `name` (a programmer error when there is none). */
export async function loadCommand(name: string, program: Command, io: CliIo): Promise<void> {
  const load = Object.hasOwn(LOADERS, name) ? LOADERS[name] : undefined;
  if (!load) throw new Error(`no module registers command ${name}: add it to src/cli/load-command.ts`);
  await load(program, io);
}

/** Every name {@link loadCommand} knows (the catalog test checks it against catalog.ts). */
export const LOADABLE_COMMANDS: readonly string[] = Object.keys(LOADERS);
