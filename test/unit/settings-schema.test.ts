import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeSettings, startOptionsOf } from '../../src/app/matches/match-options.ts';
import { prepareMatch } from '../../src/app/matches/matches.ts';
import { configRows } from '../../src/app/records/match-view.ts';
import { loadPreset } from '../../src/app/matches/presets.ts';
import { LOADABLE_COMMANDS, loadCommand, type CliIo } from '../../src/cli/load-command.ts';
import { parseMatchConfig } from '../../src/referee/match-config.ts';
import { SETTING_LIST } from '../../src/referee/settings/match-settings.ts';
import { readSettings } from '../../src/referee/settings/read-settings.ts';
import { flagSpelling, helpOf, presetKeyOf, type Setting } from '../../src/referee/settings/setting.ts';
import { presetOfConfig } from '../../src/referee/settings/settings-view.ts';
import { valuesOfConfig, type SettingValues } from '../../src/referee/settings/stored-settings.ts';

// The settings schema is the one place a match setting is declared: this walks every entry through every
// surface that is meant to derive from it, so a new entry is checked with no edit here.

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'arena-settings-'));
copyFileSync(join(ROOT, 'matches', 'hanoi-towers.jsonl'), join(dir, 'hanoi-towers.jsonl'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Settings an example needs beside it to make a match (a board's other side, the kind a size belongs to). */
const COMPANIONS: Readonly<Record<string, object>> = {
  size: { puzzle: 'warehouse' },
  rows: { cols: 4 },
  cols: { rows: 3 },
  discs: { puzzle: 'hanoi' },
  randomGoal: { puzzle: 'hanoi' },
};

const io: CliIo = { print: () => undefined, write: () => undefined, info: () => undefined, setExit: () => undefined, terminal: async () => undefined };

async function matchCommand(): Promise<Command> {
  const program = new Command('arena');
  expect(LOADABLE_COMMANDS).toContain('match');
  await loadCommand('match', program, io);
  return program.commands.find((c) => c.name() === 'match')!;
}

let n = 0;
/** The settings of a preset file holding `fields` (with two bots), as `arena match --preset` reads it. */
function presetSettings(fields: object): SettingValues {
  const file = join(dir, `p${++n}.json`);
  writeFileSync(file, JSON.stringify({ bots: ['a', 'b'], ...fields }));
  const preset = loadPreset(file, ROOT);
  if (!preset.ok) throw new Error(preset.reason);
  return preset.value.settings;
}

/** The settings of `s`'s example as its own source gives them: a preset, or the flag for what no preset may set. */
function exampleSettings(s: Setting): SettingValues {
  if (s.notInPreset) {
    // Commander's value for a given switch: true for --affinity, false for --no-sandbox.
    const flags = readSettings({ [presetKeyOf(s)]: 'whenGiven' in s.value ? !s.flag.startsWith('no-') : s.example }, 'flags');
    if (!flags.ok) throw new Error(flags.reason);
    return flags.value;
  }
  return presetSettings({ ...COMPANIONS[presetKeyOf(s)], [presetKeyOf(s)]: s.example });
}

/** The config a new match with these settings stores, as it comes back out of the database's JSON column. */
function storedConfig(settings: SettingValues): ReturnType<typeof parseMatchConfig> {
  const start = startOptionsOf([], settings, { bots: ['a', 'b'] });
  if (!start.ok) throw new Error(start.reason);
  const prepared = prepareMatch(start.value);
  if (!prepared.ok) throw new Error(prepared.reason);
  return parseMatchConfig(JSON.parse(JSON.stringify(prepared.value.config)));
}

describe('settings schema', () => {
  it.each(SETTING_LIST.map((s) => [s.flag, s] as const))('settings - --%s: in the help, a preset, the stored config, --json and the web view', async (_flag, s) => {
    // The match command's help lists the flag with the schema's help text.
    const cmd = await matchCommand();
    const option = cmd.options.find((o) => o.long === `--${s.flag}`);
    expect(option?.flags).toBe(flagSpelling(s));
    expect(option?.description).toBe(helpOf(s));
    expect(cmd.helpInformation()).toContain(flagSpelling(s));

    // A preset accepts it (or refuses it, saying why, when the schema keeps it off presets).
    const key = presetKeyOf(s);
    if (s.notInPreset) {
      const file = join(dir, `refused-${key}.json`);
      writeFileSync(file, JSON.stringify({ [key]: s.example }));
      expect(loadPreset(file, ROOT)).toEqual({ ok: false, code: 'not-in-preset', reason: `preset ${file}: "${key}": ${s.notInPreset}` });
    }
    const given = exampleSettings(s);
    const value = (given as Record<string, unknown>)[s.key];
    expect(value, 'the example is read').toBeDefined();

    // It round-trips through the stored config.
    const config = storedConfig(given);
    expect(config.ok && valuesOfConfig(config.value)).toMatchObject({ [s.key]: value });
    if (!config.ok) return;

    // --json's match.settings spells it as a preset does; the web's configuration view as the flag takes it.
    const spelled = s.value.spell(value as never);
    if (!s.notInPreset) expect(presetOfConfig(config.value)[key]).toEqual(spelled);
    expect(configRows(config.value)).toContainEqual({ flag: `--${s.flag}`, value: String(spelled), stored: true });
  });

  it('settings - --json spells a match as a preset that plays it again', () => {
    const settings = presetSettings({ puzzle: 'sliding', size: 4, count: 30, seed: 'x', timeLimit: '1m', margin: '20ms', memoryLimit: '512m', scoreBy: 'cpu', warmUp: false });
    const config = storedConfig(settings);
    if (!config.ok) throw new Error(config.reason);
    const again = presetSettings(presetOfConfig(config.value));
    expect(storedConfig(again)).toEqual(config);
  });

  it('settings - a scramble file stored with a match reads back from its --json as a preset', () => {
    const settings = presetSettings({ scrambles: 'hanoi-towers.jsonl' });
    expect(settings.scrambleFile).toBe(join(dir, 'hanoi-towers.jsonl'));
    const config = storedConfig(settings);
    if (!config.ok) throw new Error(config.reason);
    expect(presetSettings(presetOfConfig(config.value)).scrambleFile).toBe(join(dir, 'hanoi-towers.jsonl'));
  });

  it('settings - flags override a preset, and a size on the command line replaces the preset size whole', () => {
    const preset = presetSettings({ puzzle: 'sliding', rows: 3, cols: 4, count: 5, timeLimit: '30s' });
    const flags = readSettings({ size: '5', timeLimit: '2s' }, 'flags');
    expect(flags.ok && mergeSettings(flags.value, preset)).toEqual({ kind: 'sliding', size: 5, count: 5, timeLimitMs: 2000 });
  });

  it('settings - a config without the later settings reads with what their absence means', () => {
    const old = { bots: ['a'], spec: { kind: 'sliding', rows: 3, cols: 3 }, count: 5, seed: '7', timeLimitMs: 1000, maxMoves: 100, concurrency: 1 };
    expect(configRows(old)).toEqual(
      expect.arrayContaining([
        { flag: '--score-by', value: 'wall', stored: false },
        { flag: '--no-warm-up', value: 'off (the match predates the warm-up)', stored: false },
        { flag: '--time-limit', value: '1s', stored: true },
      ]),
    );
    expect(configRows({ note: 'from elsewhere' })).toBeUndefined();
  });
});
