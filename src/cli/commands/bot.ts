import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { checkBot } from '../../app/launch/bot-check.ts';
import { parseListen } from '../../app/listen.ts';
import { addBot, listBots, removeBot } from '../../app/bots/bot-registry.ts';
import { createInterface } from 'node:readline/promises';
import { botResults, purgeBot } from '../../app/bots/bot-results.ts';
import { clearBotCache } from '../../app/bots/clear-cache.ts';
import { withApp } from '../context.ts';
import { CliError, must } from '../errors.ts';
import { commandSettings, durationFlag, settingOptions } from '../parse-flags.ts';
import { renderTable } from '../table.ts';

interface AddFlags {
  cmd?: string;
  cwd?: string;
  stdio?: boolean;
  remote?: boolean;
  db?: string;
}

/** Registers `arena bot add|list|remove|check|clear-cache`. */
export function registerBot(program: Command, print: (text: string) => void, setExit: (code: number) => void, info: (text: string) => void): void {
  const bot = program.command('bot').description(summaryOf('bot'));
  bot
    .command('add')
    .description('register a bot: a command the referee spawns, or a remote bot that dials in with a token')
    .argument('<name>', 'bot name: lowercase letters and digits, words joined by single - _ or .')
    .option('--cmd <command line>', 'how to start it (no shell; quotes group words); the program must exist now')
    .option('--cwd <dir>', 'working directory for --cmd (must exist)')
    .option('--stdio', 'the bot speaks newline-delimited JSON on stdin/stdout instead of WebSocket')
    .option('--remote', 'a bot on another machine: prints its long-lived token once')
    .option('--db <file>', 'database (default ARENA_DB or ./leaderboard.db)')
    .action(async (name: string, f: AddFlags) => {
      const added = must(
        await withApp(f.db, (ctx) =>
          addBot(ctx, {
            name,
            ...(f.cmd !== undefined ? { cmd: f.cmd } : {}),
            ...(f.cwd !== undefined ? { cwd: f.cwd } : {}),
            stdio: Boolean(f.stdio),
            remote: Boolean(f.remote),
          }),
        ),
      );
      const r = added.record;
      if (added.token) {
        print(
          `registered remote bot ${r.name}. Its token (shown only now; only a hash is stored):\n${added.token}\n` +
            'The bot dials the referee started with --listen, sending "Authorization: Bearer <token>".\n',
        );
      } else {
        print(`registered bot ${r.name}: ${r.cmd}${r.stdio ? ' (stdio)' : ''}${r.cwd ? ` in ${r.cwd}` : ''}\n${added.note ? `${added.note}\n` : ''}`);
      }
    });
  bot
    .command('list')
    .description('built-in and registered bots')
    .option('--db <file>', 'database')
    .option('--json', 'machine-readable output')
    .action(async (f: { db?: string; json?: boolean }) => {
      const all = await withApp(f.db, listBots);
      print(f.json ? JSON.stringify(all) + '\n' : renderTable([['name', 'kind', 'runs as'], ...all.map((b) => [b.name, b.kind, b.how])]) + '\n');
    });
  bot
    .command('remove')
    .description('unregister a bot; its results stay in the leaderboard and reports unless --purge')
    .argument('<name>', 'bot name')
    .option('--purge', 'also delete every result recorded under the name and its flag variants (asks first)')
    .option('--yes', 'with --purge: do not ask')
    .option('--db <file>', 'database')
    .action(async (name: string, f: { db?: string; purge?: boolean; yes?: boolean }) => {
      if (f.yes && !f.purge) throw new CliError('--yes only confirms --purge');
      if (!f.purge) {
        must(await withApp(f.db, (ctx) => removeBot(ctx, name)));
        return print(`removed bot ${name} (its past results stay in the database; --purge deletes them)\n`);
      }
      const done = await withApp(f.db, async (ctx) => {
        const found = await botResults(ctx, name);
        if (found.results > 0 && !f.yes) {
          const what = `${found.results} result(s) of ${found.variants.map((v) => v.bot).join(', ')} in ${found.matches} match(es)`;
          if (!process.stdin.isTTY) throw new CliError(`--purge would delete ${what}; add --yes to confirm`);
          const rl = createInterface({ input: process.stdin, output: process.stderr });
          const answer = await rl.question(`delete ${what}? [y/N] `).finally(() => rl.close());
          if (!/^y(es)?$/i.test(answer.trim())) return undefined;
        }
        return must(await purgeBot(ctx, name));
      });
      if (!done) return print('nothing deleted\n');
      const reg = done.unregistered ? `unregistered bot ${name}; ` : '';
      print(`${reg}deleted ${done.results} result(s) in ${done.matches} match(es)${done.variants.length > 1 ? ` (${done.variants.map((v) => `${v.bot}: ${v.results}`).join(', ')})` : ''}\n`);
    });
  const check = bot
    .command('check')
    .description('compliance run: handshake, warm-up, tiny scrambles of each declared kind, a cancelled request')
    .argument('<name>', 'bot name (built-in or registered), optionally with flags in quotes');
  settingOptions(check, 'bot check')
    .option('--listen <host:port>', 'where a remote bot dials in (default 127.0.0.1 on a free port); the URL is printed')
    .option('--wait <t>', "how long a remote bot may take to dial in (default 5m), or a started bot to say hello (default: a match's start timeout for the time limit), e.g. 90s, 10m")
    .option('--db <file>', 'database')
    .action(async (name: string, f: { db?: string; listen?: string; wait?: string }) => {
      // The schema's settings: the same flags, ranges, units and defaults as a match's.
      const settings = commandSettings(f, 'bot check');
      const waitMs = durationFlag('wait', f.wait, { min: 1000, max: 86_400_000 });
      const listen = f.listen !== undefined ? must(parseListen(f.listen)) : undefined;
      const options = { name, settings, ...(listen ? { listen } : {}), ...(waitMs !== undefined ? { waitMs } : {}), notice: info };
      const report = must(await withApp(f.db, (ctx) => checkBot(ctx, options)));
      const lines = report.lines.map((l) => `${l.ok ? 'ok  ' : 'FAIL'}  ${l.what}: ${l.detail}`);
      const bad = report.problems;
      const tail = bad ? `${bad} problem(s) found${report.hint ? `\nnote: ${report.hint}` : ''}` : 'all checks passed';
      print(`sandbox: ${report.sandbox}\n${lines.join('\n')}\n${tail}\n`);
      setExit(bad ? 1 : 0);
    });
  bot
    .command('clear-cache')
    .description('empty a bot\'s persistent cache (what it kept in $ARENA_CACHE across games and matches)')
    .argument('<name>', 'bot name')
    .action((name: string) => {
      const done = must(clearBotCache(name));
      print(`cleared the cache of bot ${name}: ${done.size} in ${done.folder}\n`);
    });
}
