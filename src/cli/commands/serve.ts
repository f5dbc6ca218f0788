import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { runSubmissionBuilds } from '../../app/submissions/submissions.ts';
import { summaryOf } from '../catalog.ts';
import { openContext } from '../../app/context.ts';
import { isLoopback } from '../../app/listen.ts';
import { startWebServer, type TlsFiles } from '../../web/server.ts';
import { CliError, must } from '../errors.ts';
import { intFlag } from '../parse-flags.ts';

/** `arena serve`'s flags. */
interface ServeFlags {
  port: string;
  host: string;
  db?: string;
  private?: boolean;
  trustProxy?: boolean;
  tlsCert?: string;
  tlsKey?: string;
  builds: boolean;
}

/** The certificate and key of --tls-cert/--tls-key, read now (a missing or unreadable file is one line, exit 2). */
function tlsFiles(f: ServeFlags): TlsFiles | undefined {
  if (f.tlsCert === undefined && f.tlsKey === undefined) return undefined;
  if (f.tlsCert === undefined || f.tlsKey === undefined) throw new CliError('--tls-cert and --tls-key go together', 2);
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (e) {
      throw new CliError(`${flag} ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, 2);
    }
  };
  return { cert: read('--tls-cert', f.tlsCert), key: read('--tls-key', f.tlsKey) };
}

/** Registers `arena serve`: the web view, the submissions' doors and their builds until Ctrl-C. */
export function registerServe(program: Command, print: (text: string) => void, info: (text: string) => void): void {
  program
    .command('serve')
    .description(summaryOf('serve'))
    .option('--port <n>', 'port (default 8080; 0 = a free one)', '8080')
    .option('--host <address>', 'address to listen on (default 127.0.0.1: this machine only)', '127.0.0.1')
    .option('--db <file>', 'results database (default ARENA_DB or ./leaderboard.db)')
    .option('--private', 'every page and API call needs a signed-in participant (arena user add), except the sign-in page')
    .option('--trust-proxy', 'a reverse proxy in front sets X-Forwarded-For/-Proto/-Host: believe them (client address, HTTPS)')
    .option('--tls-cert <file>', 'serve HTTPS with this certificate (PEM; the chain after it), with --tls-key')
    .option('--tls-key <file>', "the certificate's private key (PEM), with --tls-cert")
    .option('--no-builds', 'do not build submitted bots in this process (another arena serve or worker builds them)')
    .action(async (f: ServeFlags) => {
      const port = intFlag('port', f.port, { min: 0, max: 65535 })!;
      const tls = tlsFiles(f);
      const ctx = must(await openContext(f.db ? { db: f.db } : {}));
      const stopBuilds = new AbortController();
      let builds: Promise<void> | undefined;
      try {
        let server;
        try {
          server = await startWebServer(ctx, {
            host: f.host,
            port,
            log: (line) => info(`arena serve: ${line}`),
            auth: { private: Boolean(f.private), trustProxy: Boolean(f.trustProxy) },
            ...(tls ? { tls } : {}),
          });
        } catch (e) {
          throw new CliError(`cannot listen on ${f.host}:${port}: ${(e as Error).message}`);
        }
        // Submitted bots are built beside the pages, one after another, until the server stops.
        if (f.builds) builds = runSubmissionBuilds(ctx, { signal: stopBuilds.signal }).catch((e: Error) => info(`arena serve: the builds stopped: ${e.message}`));
        if (!isLoopback(f.host) && !f.private) {
          info(`warning: serving on ${f.host}, reachable from other machines: anyone who can reach port ${port} can read every result, bot name and command in ${ctx.dbLocation} (only participants with a token can change anything: sign in, submit bots; --private requires sign-in for everything)`);
        }
        print(`serving ${ctx.dbLocation} at ${server.url}  (Ctrl-C to stop)`);
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        stopBuilds.abort();
        await server.close();
        await builds;
      } finally {
        stopBuilds.abort();
        await ctx.close();
      }
    });
}
