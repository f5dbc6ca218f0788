import { CommanderError, Option, type Command } from 'commander';
import {
  COMMAND_SETTINGS,
  duration,
  flagSpelling,
  helpOf,
  MATCH_SETTINGS,
  readSettings,
  settingNamesOf,
  settingOf,
  wholeNumber,
  type SettingCommand,
  type SettingValues,
} from '../app/matches/settings.ts';
import { CliError, must } from './errors.ts';

/**
 * Declares on `cmd` the flags of every setting `command` takes, spelled, helped and defaulted by the schema
 * (a command's own wording of a help keeps the schema's default at its end).
 */
export function settingOptions(cmd: Command, command: SettingCommand): Command {
  for (const c of COMMAND_SETTINGS[command]) {
    const s = settingOf(c.name);
    cmd.option(flagSpelling(s), helpOf(c.help !== undefined ? { ...s, help: c.help } : s));
    // Scripts written before the default turned keep working: the old switch asks for what is now the default.
    if (s.formerFlag) cmd.addOption(new Option(`--${s.formerFlag}`).hideHelp());
  }
  return cmd;
}

/** The settings `command` takes, read from commander's flags by the schema's readers (a mistake exits with one line). */
export function commandSettings(flags: object, command: SettingCommand): SettingValues {
  return must(readSettings(flags as Readonly<Record<string, unknown>>, 'flags', settingNamesOf(command)));
}

/** The seed's reader, the match setting's. */
const SEED = MATCH_SETTINGS.seed.value;

/** An inclusive range of accepted values. */
export interface Range {
  readonly min: number;
  readonly max: number;
}

/** Parses a whole-number flag within `range`, with a one-line error naming the flag and the range. */
export function intFlag(name: string, value: string | undefined, range: Range): number | undefined {
  return value === undefined ? undefined : must(wholeNumber('', range).read(value), `--${name}`);
}

/**
 * Parses a duration with its unit ("500ms", "10s", "2m", "1h") within `range` (ms). A bare number is
 * refused with the unit it most likely meant (`typicalMs`, the flag's usual value, default 10 s, decides:
 * 10 -> 10s). The same reader as the match settings', so every time flag words a mistake alike.
 */
export function durationFlag(name: string, value: string | undefined, range: Range, typicalMs = 10_000): number | undefined {
  return value === undefined ? undefined : must(duration('', range, typicalMs).read(value), `--${name}`);
}

/** A duration in whole seconds within `range` (seconds), given with its unit like any other time ("5s", "2m"). */
export function secondsFlag(name: string, value: string | undefined, range: Range, typicalSeconds: number): number | undefined {
  const ms = durationFlag(name, value, { min: range.min * 1000, max: range.max * 1000 }, typicalSeconds * 1000);
  if (ms === undefined) return undefined;
  if (ms % 1000 !== 0) throw new CliError(`--${name} must be whole seconds, got "${value}"`);
  return ms / 1000;
}

/** A seed: any non-empty text up to the stored limit (the match setting's reader). */
export function seedFlag(value: string | undefined): string | undefined {
  return value === undefined ? undefined : must(SEED.read(value), '--seed');
}

/**
 * Makes commander's own usage refusals of `cmd` (an unknown option, a missing value or required option) exit
 * with 2, as the command's other usage mistakes do; help and version still exit 0.
 */
export function usageExitsWith2(cmd: Command): Command {
  return cmd.exitOverride((e) => {
    throw e.exitCode === 0 ? e : new CommanderError(2, e.code, e.message);
  });
}
