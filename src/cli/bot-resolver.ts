import type { BotLauncher } from '../protocol/link.ts';
import type { Store } from '../store/types.ts';
import { builtinBotCommand, listBuiltinBots } from '../transport/builtin-bots.ts';
import { createProcessLauncher } from '../transport/process-launcher.ts';
import { createRemoteLauncher } from '../transport/remote-launcher.ts';
import type { ArenaServer } from '../transport/ws-server.ts';
import { PROJECT_ROOT } from './context.ts';
import { CliError } from './errors.ts';
import { splitCommand } from './split-command.ts';

/** How to start one bot of a match. */
export interface ResolvedBot {
  /** The name results are recorded under: the base name plus any extra flags, e.g. "ida-star --weight 2". */
  readonly name: string;
  readonly source: 'builtin' | 'command' | 'remote';
  readonly command?: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly stdio?: boolean;
}

/**
 * Resolves a bot argument: "<name> [extra flags]". Registered bots first (their command line gets the extra
 * flags appended), then built-in bots under bots/<name>/.
 */
export async function resolveBot(arg: string, store: Store): Promise<ResolvedBot> {
  const [base, ...extra] = splitCommand(arg);
  if (!base) throw new CliError('empty bot name');
  const name = [base, ...extra].join(' ');
  const reg = await store.getBot(base);
  if (reg?.kind === 'remote') {
    if (extra.length) throw new CliError(`bot ${base} is remote: it cannot take extra flags`);
    return { name, source: 'remote', args: [] };
  }
  if (reg?.kind === 'command') {
    const [command, ...args] = splitCommand(reg.cmd ?? '');
    if (!command) throw new CliError(`bot ${base} has an empty command line`);
    return { name, source: 'command', command, args: [...args, ...extra], ...(reg.cwd ? { cwd: reg.cwd } : {}), ...(reg.stdio ? { stdio: true } : {}) };
  }
  const builtin = builtinBotCommand(base, PROJECT_ROOT);
  if (builtin) return { name, source: 'builtin', command: builtin.command, args: [...builtin.args, ...extra] };
  const known = [...listBuiltinBots(PROJECT_ROOT), ...(await store.listBots()).map((b) => b.name)].sort();
  throw new CliError(`unknown bot "${base}"; known bots: ${known.join(', ') || '(none)'}`);
}

/** A launcher for a resolved bot on `server`. */
export function launcherFor(bot: ResolvedBot, server: ArenaServer, opts: { startTimeoutMs: number }): BotLauncher {
  if (bot.source === 'remote') return createRemoteLauncher(bot.name, server, opts.startTimeoutMs);
  return createProcessLauncher({
    name: bot.name,
    command: bot.command!,
    args: [...bot.args],
    server,
    startTimeoutMs: opts.startTimeoutMs,
    ...(bot.cwd ? { cwd: bot.cwd } : {}),
    ...(bot.stdio ? { stdio: true } : {}),
  });
}
