import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { resolveTarget } from '../../app/submissions/credentials.ts';
import { withdrawRemote } from '../../app/submissions/submit-client.ts';
import { CliError } from '../errors.ts';
import { usageExitsWith2 } from '../parse-flags.ts';

/** Registers `arena withdraw`: takes a submitted bot off an arena (its owner or an admin); its results stay. */
export function registerWithdraw(program: Command, print: (text: string) => void): void {
  usageExitsWith2(program.command('withdraw'))
    .description(summaryOf('withdraw'))
    .argument('<bot>', 'the bot, as the arena names it: alice/astar')
    .option('--server <url>', 'the arena (default: the one arena login stored)')
    .option('--token <token>', 'your token (default ARENA_TOKEN, else the one arena login stored for this server)')
    .option('--json', 'print {"withdrawn": bot}')
    .action(async (bot: string, f: { server?: string; token?: string; json?: boolean }) => {
      const target = resolveTarget({ server: f.server, token: f.token });
      if (!target.ok) throw new CliError(target.reason, 2);
      const r = await withdrawRemote(target.value, bot);
      if (!r.ok) throw new CliError(`${target.value.server} did not withdraw ${bot}: ${r.reason}`);
      print(f.json ? JSON.stringify(r.value) : `withdrew ${r.value.withdrawn} from ${target.value.server}; its results stay`);
    });
}
