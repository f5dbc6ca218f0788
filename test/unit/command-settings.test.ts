import { Command, type Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { loadCommand, type CliIo } from '../../src/cli/load-command.ts';
import { CliError } from '../../src/cli/errors.ts';
import { commandSettings } from '../../src/cli/parse-flags.ts';
import { COMMAND_SETTINGS, type SettingCommand } from '../../src/referee/settings/command-settings.ts';
import { SETTING_LIST } from '../../src/referee/settings/match-settings.ts';
import { readSettings } from '../../src/referee/settings/read-settings.ts';
import { helpOf, presetKeyOf } from '../../src/referee/settings/setting.ts';
import { settingOf } from '../../src/referee/settings/stored-settings.ts';

// Every command that starts bots takes its settings from the one schema: this walks every setting of every
// such command through the command as the CLI builds it, so a command that declares a setting's flag by
// hand (with a default typed out), or leaves one out, fails here.

const io: CliIo = { print: () => undefined, write: () => undefined, info: () => undefined, setExit: () => undefined, terminal: async () => undefined };

/** Flags a command declares itself although the schema has a setting of that name, and why. */
const OWN: Readonly<Partial<Record<SettingCommand, readonly string[]>>> = {
  // The ladder's seed is the seed of the whole ladder on its first run ("<seed>/<game>" per game), not a match's;
  // its --puzzle names whole classes ("sliding 3x3", repeatable), not a match's one kind; its --scrambles <n>
  // is a count per game, not a match's scramble file.
  ladder: ['seed', 'puzzle', 'scrambles'],
};

/** The commander command a setting command is (`bot check` is `check` under `bot`). */
async function commandOf(name: SettingCommand): Promise<Command> {
  const program = new Command('arena');
  const [top, sub] = name.split(' ') as [string, string | undefined];
  await loadCommand(top, program, io);
  const cmd = program.commands.find((c) => c.name() === top)!;
  return sub ? cmd.commands.find((c) => c.name() === sub)! : cmd;
}

const commands = Object.keys(COMMAND_SETTINGS) as SettingCommand[];

describe('command settings', () => {
  it.each(commands)('command settings - %s declares each of its settings once, as the schema spells and helps it, its default the schema\'s', async (name) => {
    const cmd = await commandOf(name);
    const options = cmd.options as readonly Option[];
    for (const c of COMMAND_SETTINGS[name]) {
      const s = settingOf(c.name);
      const declared = options.filter((o) => o.long === `--${s.flag}`);
      expect(declared, `${name} --${s.flag}`).toHaveLength(1);
      const o = declared[0]!;
      expect(o.description).toBe(helpOf(c.help !== undefined ? { ...s, help: c.help } : s));
      expect(o.flags).toBe(s.value.placeholder ? `--${s.flag} ${s.value.placeholder}` : `--${s.flag}`);
      if (s.default !== undefined && s.value.placeholder) expect(o.description).toMatch(new RegExp(`\\(default ${String(s.value.spell(s.default as never))}\\)$`));
    }
    // No setting of the schema is declared by hand under its flag, outside the command's list.
    const taken = new Set(COMMAND_SETTINGS[name].map((c) => settingOf(c.name).flag));
    for (const s of SETTING_LIST) {
      if (taken.has(s.flag) || OWN[name]?.includes(s.flag)) continue;
      expect(options.some((o) => o.long === `--${s.flag}`), `${name} declares --${s.flag} by hand`).toBe(false);
    }
    // No help of the command types a schema default out by hand (e.g. "(default 10s)" on another flag).
    for (const c of COMMAND_SETTINGS[name]) {
      const s = settingOf(c.name);
      if (s.default === undefined || !s.value.placeholder) continue;
      const typed = `default ${String(s.value.spell(s.default as never))}`;
      const others = options.filter((o) => o.long !== `--${s.flag}` && o.description.includes(typed) && o.description.includes(s.flag));
      expect(others.map((o) => o.long)).toEqual([]);
    }
  });

  it.each(commands)('command settings - %s reads every one of its settings with the schema\'s reader and words a mistake alike', (name) => {
    for (const c of COMMAND_SETTINGS[name]) {
      const s = settingOf(c.name);
      const key = presetKeyOf(s);
      // A given switch as commander hands it over (true for --affinity, false for --no-sandbox); else its example.
      const raw = 'whenGiven' in s.value ? !s.flag.startsWith('no-') : String(s.example);
      expect(commandSettings({ [key]: raw }, name)).toEqual(readSettings({ [key]: raw }, 'flags').ok && (readSettings({ [key]: raw }, 'flags') as { value: unknown }).value);
      const r = readSettings({ [key]: 'nonsense!' }, 'flags');
      if ('whenGiven' in s.value || r.ok) continue; // a switch takes no value; a seed or a file name may be any text
      let said = '';
      try {
        commandSettings({ [key]: 'nonsense!' }, name);
      } catch (e) {
        expect(e).toBeInstanceOf(CliError);
        said = (e as Error).message;
      }
      expect(said).toBe(!r.ok ? r.reason : '');
      expect(said).toMatch(new RegExp(`^--${s.flag} `));
    }
  });

  it('command settings - a command reads only its own settings: the ladder\'s --scrambles <n> is not the match\'s scramble file', () => {
    expect(commandSettings({ scrambles: '10', timeLimit: '2s' }, 'ladder')).toEqual({ timeLimitMs: 2000 });
    expect(commandSettings({ scrambles: 'x.jsonl' }, 'match')).toEqual({ scrambleFile: 'x.jsonl' });
  });

  it('command settings - the time limit, memory limit, disk budget and sandbox switch are on every command that starts bots', () => {
    for (const name of ['match', 'bot check', 'ladder'] as const) {
      expect(COMMAND_SETTINGS[name].map((c) => c.name)).toEqual(expect.arrayContaining(['timeLimitMs', 'memoryLimitBytes', 'diskBudgetBytes', 'unconfined']));
    }
    expect(COMMAND_SETTINGS.worker.map((c) => c.name)).toContain('unconfined');
  });
});
