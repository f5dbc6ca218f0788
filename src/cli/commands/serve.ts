import type { Command } from 'commander';
import { summaryOf } from '../catalog.ts';
import { openContext } from '../../app/context.ts';
import { isLoopback } from '../../app/listen.ts';
import { startWebServer } from '../../web/server.ts';
import { CliError, must } from '../errors.ts';
import { intFlag } from '../parse-flags.ts';

/** Registers `arena serve`: the read-only web view until Ctrl-C. */
export function registerServe(program: Command, print: (text: string) => void, info: (text: string) => void): void {
  program
    .command('serve')
    .description(summaryOf('serve'))
    .option('--port <n>', 'port (default 8080; 0 = a free one)', '8080')
    .option('--host <address>', 'address to listen on (default 127.0.0.1: this machine only)', '127.0.0.1')
    .option('--db <file>', 'results database (default ARENA_DB or ./leaderboard.db)')
    .option('--private', 'every page and API call needs a signed-in participant (arena user add), except the sign-in page')
    .option('--trust-proxy', 'a reverse proxy in front sets X-Forwarded-For/-Proto/-Host: believe them (client address, HTTPS)')
    .action(async (f: { port: string; host: string; db?: string; private?: boolean; trustProxy?: boolean }) => {
      const port = intFlag('port', f.port, { min: 0, max: 65535 })!;
      const ctx = must(await openContext(f.db ? { db: f.db } : {}));
      try {
        let server;
        try {
          server = await startWebServer(ctx, {
            host: f.host,
            port,
            log: (line) => info(`arena serve: ${line}`),
            auth: { private: Boolean(f.private), trustProxy: Boolean(f.trustProxy) },
          });
        } catch (e) {
          throw new CliError(`cannot listen on ${f.host}:${port}: ${(e as Error).message}`);
        }
        if (!isLoopback(f.host) && !f.private) {
          info(`warning: serving on ${f.host}, reachable from other machines: anyone who can reach port ${port} can read every result, bot name and command in ${ctx.dbLocation} (the view is read-only; --private requires sign-in)`);
        }
        print(`serving ${ctx.dbLocation} at ${server.url}  (Ctrl-C to stop)`);
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await server.close();
      } finally {
        await ctx.close();
      }
    });
}
