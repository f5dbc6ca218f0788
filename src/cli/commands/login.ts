import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { credentialsPath, serverUrl, writeCredentials } from '../../app/submissions/credentials.ts';
import { whoAmI } from '../../app/submissions/submit-client.ts';
import { CliError, must } from '../errors.ts';
import { usageExitsWith2 } from '../parse-flags.ts';

/** Reads the token: typed at a terminal without echo, else the first line of stdin (`arena login … < token.txt`). */
async function readToken(info: (text: string) => void): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    let text = '';
    for await (const chunk of stdin) {
      text += chunk;
      if (text.includes('\n') || text.length > 4096) break;
    }
    return text.split('\n')[0]!.trim();
  }
  process.stderr.write('token: ');
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  try {
    let text = '';
    for await (const chunk of stdin as AsyncIterable<string>) {
      for (const ch of chunk) {
        if (ch === '\u0003') throw new CliError('cancelled', 130);
        if (ch === '\r' || ch === '\n') return text.trim();
        text = ch === '\u007f' ? text.slice(0, -1) : text + ch;
      }
    }
    return text.trim();
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
    info('');
  }
}

/** Registers `arena login`: checks a token against a server and stores both for `arena submit`. */
export function registerLogin(program: Command, print: (text: string) => void, info: (text: string) => void): void {
  usageExitsWith2(program.command('login'))
    .description(summaryOf('login'))
    .requiredOption('--server <url>', 'the arena, e.g. https://arena.example.org')
    .action(async (f: { server: string }) => {
      const server = serverUrl(f.server);
      if (!server.ok) throw new CliError(server.reason, 2);
      const token = await readToken(info);
      if (!token) throw new CliError('no token given (type it, or pipe it in: arena login --server URL < token.txt)', 2);
      const who = await whoAmI({ server: server.value, token });
      if (!who.ok) throw new CliError(`${server.value} did not accept the token: ${who.reason}`);
      const path = must(writeCredentials(credentialsPath(), { server: server.value, token }));
      print(`logged in to ${server.value} as ${who.value.user}${who.value.admin ? ' (admin)' : ''}; the token is stored in ${path} (readable by you only)`);
    });
}
