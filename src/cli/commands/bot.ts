import type { Command } from 'commander';
import { checkBot, type CheckLine } from '../../referee/compliance.ts';
import { builtinBotCommand, listBuiltinBots } from '../../transport/builtin-bots.ts';
import { systemClock } from '../../transport/system-clock.ts';
import { hashToken, newToken } from '../../transport/tokens.ts';
import { startArenaServer } from '../../transport/ws-server.ts';
import { launcherFor, resolveBot } from '../bot-resolver.ts';
import { openStore, PROJECT_ROOT } from '../context.ts';
import { CliError } from '../errors.ts';
import { splitCommand } from '../split-command.ts';
import { durationFlag } from '../parse-flags.ts';
import { renderTable } from '../table.ts';

const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

/** Typed options of `arena bot add`. */
export interface BotAddOptions {
  readonly name: string;
  readonly cmd?: string;
  readonly cwd?: string;
  readonly stdio: boolean;
  readonly remote: boolean;
  readonly db?: string;
}

/** Registers a command or remote bot; for a remote bot the returned text holds its token, shown once. */
export async function botAddAction(o: BotAddOptions): Promise<string> {
  if (!NAME.test(o.name)) throw new CliError(`bad bot name "${o.name}": letters, digits, '.', '_' and '-' only`);
  if (o.remote === Boolean(o.cmd)) throw new CliError('give exactly one of --cmd "<command line>" or --remote');
  if (builtinBotCommand(o.name, PROJECT_ROOT)) throw new CliError(`"${o.name}" is a built-in bot; pick another name`);
  if (o.remote && (o.cwd || o.stdio)) throw new CliError('--cwd and --stdio apply to --cmd bots only');
  if (o.cmd !== undefined && splitCommand(o.cmd).length === 0) throw new CliError('--cmd is empty');
  const { store } = openStore(o.db);
  try {
    if (await store.getBot(o.name)) throw new CliError(`a bot named "${o.name}" is already registered (arena bot remove ${o.name} first)`);
    if (o.remote) {
      const token = newToken();
      await store.addBot({ name: o.name, kind: 'remote', tokenHash: hashToken(token) });
      return `registered remote bot ${o.name}. Its token (shown only now; only a hash is stored):\n${token}\nThe bot dials the referee started with --listen, sending "Authorization: Bearer <token>".\n`;
    }
    await store.addBot({ name: o.name, kind: 'command', cmd: o.cmd!, ...(o.cwd ? { cwd: o.cwd } : {}), ...(o.stdio ? { stdio: true } : {}) });
    return `registered bot ${o.name}: ${o.cmd}${o.stdio ? ' (stdio)' : ''}\n`;
  } finally {
    await store.close();
  }
}

/** Lists built-in and registered bots. */
export async function botListAction(o: { db?: string; json: boolean }): Promise<string> {
  const { store } = openStore(o.db);
  try {
    const builtin = listBuiltinBots(PROJECT_ROOT).map((name) => ({ name, kind: 'built-in', how: `bots/${name}/main.ts` }));
    const reg = (await store.listBots()).map((b) => ({ name: b.name, kind: b.kind, how: b.kind === 'remote' ? 'dials in with its token' : `${b.cmd}${b.stdio ? ' (stdio)' : ''}${b.cwd ? ` in ${b.cwd}` : ''}` }));
    const all = [...builtin, ...reg];
    if (o.json) return JSON.stringify(all) + '\n';
    return renderTable([['name', 'kind', 'runs as'], ...all.map((b) => [b.name, b.kind, b.how])]) + '\n';
  } finally {
    await store.close();
  }
}

/** Unregisters a bot; its past results stay. */
export async function botRemoveAction(o: { name: string; db?: string }): Promise<string> {
  const { store } = openStore(o.db);
  try {
    if (!(await store.removeBot(o.name))) {
      if (builtinBotCommand(o.name, PROJECT_ROOT)) throw new CliError(`"${o.name}" is a built-in bot; it cannot be removed`);
      throw new CliError(`no registered bot named "${o.name}"`);
    }
    return `removed bot ${o.name} (its past results stay in the database)\n`;
  } finally {
    await store.close();
  }
}

/** Runs the compliance check; exit code 1 when any line failed. */
export async function botCheckAction(o: { name: string; db?: string; timeLimitMs: number }): Promise<{ text: string; exitCode: number }> {
  const { store } = openStore(o.db);
  try {
    const bot = await resolveBot(o.name, store);
    const server = await startArenaServer({ authenticate: () => undefined });
    try {
      const lines: CheckLine[] = await checkBot(launcherFor(bot, server, { startTimeoutMs: 30_000 }), systemClock, o.timeLimitMs);
      const bad = lines.filter((l) => !l.ok).length;
      const text = lines.map((l) => `${l.ok ? 'ok  ' : 'FAIL'}  ${l.what}: ${l.detail}`).join('\n') + `\n${bad ? `${bad} problem(s) found` : 'all checks passed'}\n`;
      return { text, exitCode: bad ? 1 : 0 };
    } finally {
      await server.close();
    }
  } finally {
    await store.close();
  }
}

/** Registers `arena bot add|list|remove|check`. */
export function registerBot(program: Command, print: (text: string) => void, setExit: (code: number) => void): void {
  const bot = program.command('bot').description('register, list, remove and check solver bots');
  bot
    .command('add')
    .description('register a bot: a command the referee spawns, or a remote bot that dials in with a token')
    .argument('<name>', 'bot name')
    .option('--cmd <command line>', 'how to start it (no shell; quotes group words)')
    .option('--cwd <dir>', 'working directory for --cmd')
    .option('--stdio', 'the bot speaks newline-delimited JSON on stdin/stdout instead of WebSocket')
    .option('--remote', 'a bot on another machine: prints its long-lived token once')
    .option('--db <file>', 'database (default ARENA_DB or ./leaderboard.db)')
    .action(async (name: string, f: { cmd?: string; cwd?: string; stdio?: boolean; remote?: boolean; db?: string }) =>
      print(await botAddAction({ name, ...(f.cmd !== undefined ? { cmd: f.cmd } : {}), ...(f.cwd ? { cwd: f.cwd } : {}), stdio: Boolean(f.stdio), remote: Boolean(f.remote), ...(f.db ? { db: f.db } : {}) })),
    );
  bot
    .command('list')
    .description('built-in and registered bots')
    .option('--db <file>', 'database')
    .option('--json', 'machine-readable output')
    .action(async (f: { db?: string; json?: boolean }) => print(await botListAction({ ...(f.db ? { db: f.db } : {}), json: Boolean(f.json) })));
  bot
    .command('remove')
    .description('unregister a bot (its results stay)')
    .argument('<name>', 'bot name')
    .option('--db <file>', 'database')
    .action(async (name: string, f: { db?: string }) => print(await botRemoveAction({ name, ...(f.db ? { db: f.db } : {}) })));
  bot
    .command('check')
    .description('compliance run: handshake, tiny scrambles of each declared kind, a cancelled request')
    .argument('<name>', 'bot name (built-in or registered), optionally with flags in quotes')
    .option('--time-limit <t>', 'per request (default 10s)')
    .option('--db <file>', 'database')
    .action(async (name: string, f: { db?: string; timeLimit?: string }) => {
      const r = await botCheckAction({ name, ...(f.db ? { db: f.db } : {}), timeLimitMs: durationFlag('time-limit', f.timeLimit) ?? 10_000 });
      print(r.text);
      setExit(r.exitCode);
    });
}
