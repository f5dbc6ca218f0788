/**
 * The settings schema as the entry points use it: the CLI declares and reads `arena match`'s flags with it,
 * and the other commands read times and sizes with its readers. The schema is src/referee/settings/match-settings.ts;
 * the web's configuration view is app/match-view.ts's.
 */
export { MATCH_DEFAULTS, MATCH_LIMITS, MATCH_SETTINGS, SETTING_LIST } from '../referee/settings/match-settings.ts';
export { flagSpelling, helpOf, presetKeyOf, type Setting } from '../referee/settings/setting.ts';
export { duration, wholeNumber } from '../referee/settings/value-types.ts';
export { readSettings } from '../referee/settings/read-settings.ts';
export type { SettingValues } from '../referee/settings/stored-settings.ts';
export type { SettingRow } from '../referee/settings/settings-view.ts';
