import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandOf, listAll } from '../../src/cli/catalog.ts';
import { LOADABLE_COMMANDS, loadCommand, type CliIo } from '../../src/cli/load-command.ts';

const io: CliIo = { print: () => undefined, write: () => undefined, info: () => undefined, setExit: () => undefined, terminal: async () => undefined };

/** Every command as the real modules define it: name -> the term and description `--help` lists. */
async function realCommands(): Promise<Map<string, { term: string; description: string }>> {
  const program = new Command('arena');
  for (const name of new Set(LOADABLE_COMMANDS)) if (!program.commands.some((c) => c.name() === name)) await loadCommand(name, program, io);
  const help = program.createHelp();
  return new Map(program.commands.map((c) => [c.name(), { term: help.subcommandTerm(c), description: c.description() }]));
}

describe('cli catalog', () => {
  it('catalog - names exactly the commands the modules define, with their usage and summary', async () => {
    const real = await realCommands();
    expect([...real.keys()].sort()).toEqual(COMMANDS.map((c) => c.name).sort());
    expect([...LOADABLE_COMMANDS].sort()).toEqual(COMMANDS.map((c) => c.name).sort());
    for (const c of COMMANDS) {
      expect(real.get(c.name)!.description, c.name).toBe(c.summary);
      expect(real.get(c.name)!.term, c.name).toBe(`${c.name}${c.usage ? ` ${c.usage}` : ''}`);
    }
  });

  it('catalog - the help listing without loading a module matches the one with every module loaded', async () => {
    const stubs = new Command('arena');
    listAll(stubs);
    const help = stubs.createHelp();
    const listed = stubs.commands.map((c) => [c.name(), help.subcommandTerm(c), c.description()]);
    const real = await realCommands();
    expect(listed).toEqual(COMMANDS.map((c) => [c.name, real.get(c.name)!.term, real.get(c.name)!.description]));
  });

  it('commandOf - finds the command word after top-level options, and help’s argument', () => {
    expect(commandOf(['matches', '--limit', '3'])).toBe('matches');
    expect(commandOf(['--no-color', 'show', '2'])).toBe('show');
    expect(commandOf(['help', 'match'])).toBe('match');
    expect(commandOf(['--help'])).toBeUndefined();
    expect(commandOf(['nosuch'])).toBeUndefined();
    expect(commandOf([])).toBeUndefined();
  });
});
