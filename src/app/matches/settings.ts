/**
 * The settings schema as the entry points use it: the CLI declares and reads the flags of every command
 * that starts bots with it (COMMAND_SETTINGS says which command takes which), and the other commands read
 * times and sizes with its readers. The schema is src/referee/settings/match-settings.ts;
 * the web's configuration view is app/records/match-view.ts's.
 */
export { MATCH_DEFAULTS, MATCH_LIMITS, MATCH_SETTINGS, SETTING_LIST } from '../../referee/settings/match-settings.ts';
export { flagSpelling, helpOf, presetKeyOf, type Setting } from '../../referee/settings/setting.ts';
export { duration, wholeNumber } from '../../referee/settings/value-types.ts';
export { readSettings } from '../../referee/settings/read-settings.ts';
export { COMMAND_SETTINGS, settingNamesOf, type CommandSetting, type SettingCommand } from '../../referee/settings/command-settings.ts';
export { settingOf, type PlaySettings, type SettingName } from '../../referee/settings/stored-settings.ts';
export type { SettingValues } from '../../referee/settings/stored-settings.ts';
export type { SettingRow } from '../../referee/settings/settings-view.ts';
