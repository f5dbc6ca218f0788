/**
 * Which settings each command that starts bots takes. Every such command declares, reads and helps its
 * flags from the one schema (match-settings.ts) through this table, so a time limit, a memory limit, a disk
 * budget or the sandbox switch has one spelling, one default, one range and one unit message everywhere.
 * A command may word a setting's help for what it means there (a worker's --no-sandbox accepts matches
 * stored unconfined); the default the help ends with is still the schema's.
 */
import { SETTING_LIST } from './match-settings.ts';
import type { SettingName } from './stored-settings.ts';

/** One setting a command takes, with its own help when the schema's does not say what it means there. */
export interface CommandSetting {
  readonly name: SettingName;
  readonly help?: string;
}

/** The commands that take settings of the schema. */
export type SettingCommand = 'match' | 'bot check' | 'ladder' | 'worker';

/** The settings of every bot a command starts (its launch plan: app/launch/launch-plan.ts), the sandbox switch worded for the command. */
const launch = (unconfinedHelp: string): readonly CommandSetting[] => [
  { name: 'timeLimitMs' },
  { name: 'memoryLimitBytes' },
  { name: 'diskBudgetBytes' },
  { name: 'unconfined', help: unconfinedHelp },
];

/** Each command's settings, in the order its help lists them. `arena match` (and --distributed) takes them all. */
export const COMMAND_SETTINGS: Readonly<Record<SettingCommand, readonly CommandSetting[]>> = {
  match: SETTING_LIST.map((s) => ({ name: s.key as SettingName })),
  'bot check': launch('run it unconfined, with your own rights (by default it runs in the sandbox a match gives it)'),
  ladder: launch("run the bots unconfined, with your own rights, its checks and games alike (recorded with each game's match)"),
  worker: [
    { name: 'concurrency' },
    {
      name: 'unconfined',
      help: 'also play matches stored as unconfined (arena match --distributed --no-sandbox) with registered bots: they run with your own rights here',
    },
  ],
};

/** The names of the settings `command` takes. */
export function settingNamesOf(command: SettingCommand): SettingName[] {
  return COMMAND_SETTINGS[command].map((c) => c.name);
}
