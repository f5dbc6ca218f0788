import { Command, CommanderError } from 'commander';
import { CliError } from './errors.ts';
import { registerScramble } from './commands/scramble.ts';
import { registerVerify } from './commands/verify.ts';

// The only place that prints and exits: commands return text, this file writes it.
const print = (text: string) => void process.stdout.write(text.endsWith('\n') ? text : text + '\n');
let exitCode = 0;
const setExit = (code: number) => {
  exitCode = code;
};

const program = new Command('arena')
  .description('puzzle-arena: seeded scrambles, solver bots over WebSockets, validated results in SQLite')
  .version('0.1.0')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

registerScramble(program, print);
registerVerify(program, print, setExit);

try {
  await program.parseAsync(process.argv);
  process.exitCode = exitCode;
} catch (e) {
  if (e instanceof CommanderError) {
    // Commander already printed its message (or the help / version text).
    process.exitCode = e.exitCode;
  } else if (e instanceof CliError) {
    process.stderr.write(`arena: ${e.message}\n`);
    process.exitCode = e.exitCode;
  } else {
    const err = e as Error;
    process.stderr.write(`arena: internal error: ${err?.message ?? String(e)}\n`);
    if (process.env.ARENA_DEBUG === '1') process.stderr.write(`${err?.stack ?? ''}\n`);
    process.exitCode = 70;
  }
}
