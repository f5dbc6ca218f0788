import { Command, CommanderError } from 'commander';
import { CliError } from './errors.ts';
import { commandOf, listAll } from './catalog.ts';
import { loadCommand } from './load-command.ts';
import type { TerminalRun } from './commands/match.ts';
import { withInterrupt } from './interrupt.ts';
import { progressBar } from './progress.ts';
import { terminalText } from './terminal-text.ts';

/** Thrown by `print` once the reader of stdout has gone (`arena replay … | head`): the command stops there. */
class OutputClosed extends Error {}

// A reader that stops early closes the pipe: that ends the output, it is not an error, so no stack trace.
// The failed write destroys the stream at once, so the next print throws and stops the command's loop.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
  });
}

// The only place that prints and exits: commands return text, this file writes it, with every control
// character a bot may have put in it made visible instead of obeyed (terminal-text.ts).
const print = (text: string) => {
  if (process.stdout.destroyed) throw new OutputClosed();
  const safe = terminalText(text);
  process.stdout.write(safe.endsWith('\n') ? safe : safe + '\n');
};
const write = (text: string) => {
  if (process.stdout.destroyed) throw new OutputClosed();
  process.stdout.write(terminalText(text));
};
const info = (text: string) => void (process.stderr.destroyed || process.stderr.write(`${terminalText(text)}\n`));
const fail = (text: string) => void process.stderr.write(`arena: ${terminalText(text)}\n`);
let exitCode = 0;
const setExit = (code: number) => {
  exitCode = code;
};

/** Runs a match in the terminal: Ctrl-C stops it cleanly, a progress bar on stderr, the report on stdout. */
const terminal: TerminalRun = (play, opts = {}) =>
  // First Ctrl-C: stop cleanly (bots told bye and killed, match marked interrupted). Second: leave now.
  withInterrupt(
    () => info('\nstopping: telling bots bye, marking the match interrupted (Ctrl-C again to force)'),
    async (signal) => {
      const bar = opts.quiet ? undefined : progressBar();
      try {
        const r = await play({
          signal,
          notice: info,
          ...(bar ? { onStart: (s) => bar.start(s), onResult: (e) => bar.update(e), onBound: (e) => bar.bound(e) } : {}),
        });
        bar?.end();
        print(r.text);
        if (r.notice) info(r.notice);
        setExit(r.exitCode);
      } finally {
        bar?.end();
      }
    },
  );

const program = new Command('arena')
  .description('puzzle-arena: seeded scrambles, solver bots over WebSockets, validated results in SQLite')
  .version('0.1.0')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

/**
 * Runs the command named on the command line. A function, not top-level await: the build also bundles this
 * file as CommonJS, which has none, to start from a V8 code cache (scripts/cli-bundle.js).
 */
async function main(): Promise<void> {
  try {
    const named = commandOf(process.argv.slice(2));
    if (named) await loadCommand(named, program, { print, write, info, setExit, terminal });
    else listAll(program);
    await program.parseAsync(process.argv);
    process.exitCode = exitCode;
  } catch (e) {
    if (e instanceof CommanderError) {
      // Commander already printed its message (or the help / version text).
      process.exitCode = e.exitCode;
    } else if (e instanceof OutputClosed) {
      // The reader took what it wanted; what the command decided so far stands (0 unless it failed).
      process.exitCode = exitCode;
    } else if (e instanceof CliError) {
      fail(e.message);
      process.exitCode = e.exitCode;
    } else {
      // Loaded only here, so `arena --help` never loads the database drivers that tell their errors apart.
      const { databaseFailure } = await import('../app/context.ts');
      const why = databaseFailure(e);
      if (why !== undefined) {
        // The database itself failed (a full disk, a read-only file): its reason in one line, no stack.
        fail(`the database failed: ${why}`);
        process.exitCode = 1;
      } else {
        const err = e as Error;
        fail(`internal error: ${err?.message ?? String(e)}`);
        if (process.env.ARENA_DEBUG === '1') process.stderr.write(`${terminalText(err?.stack ?? '')}\n`);
        process.exitCode = 70;
      }
    }
  }
}

void main();
