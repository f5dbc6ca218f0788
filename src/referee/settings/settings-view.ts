/**
 * A stored config as people read it: the settings spelled as flags and presets spell them (`30s`, `512m`),
 * for the web's configuration view and for `--json`. Read off the settings list, so a new setting shows up
 * in both without an edit here.
 */
import type { ScrambleSpec } from '../../core/types.ts';
import { SETTING_LIST } from './match-settings.ts';
import { presetKeyOf } from './setting.ts';
import { valuesOfConfig } from './stored-settings.ts';

/** One line of the configuration view. */
export interface SettingRow {
  /** The flag that sets it, e.g. `--time-limit`. */
  readonly flag: string;
  /** The value as the flag takes it, or what its absence means. */
  readonly value: string;
  /** False when the config does not hold it and the value says what that means (an older match). */
  readonly stored: boolean;
}

type StoredConfig = Readonly<Record<string, unknown>> & { readonly spec?: ScrambleSpec };

/**
 * The rows of a (validated) stored config: every setting it holds, and every one it does not hold whose
 * absence means something (`--score-by wall`); a spec setting the kind does not use is left out.
 */
export function settingRows(config: StoredConfig): SettingRow[] {
  const values = valuesOfConfig(config) as Readonly<Record<string, unknown>>;
  const rows: SettingRow[] = [];
  for (const s of SETTING_LIST) {
    const v = values[s.key];
    if (v !== undefined) rows.push({ flag: `--${s.flag}`, value: String(s.value.spell(v as never)), stored: true });
    else if (s.absent !== undefined) rows.push({ flag: `--${s.flag}`, value: s.absent, stored: false });
  }
  return rows;
}

/**
 * The settings of a (validated) stored config as a preset spells them (`{"puzzle":…,"timeLimit":"30s",…}`):
 * with the bots, a preset file that plays the same match again. A setting no preset may hold is left out
 * (the sandbox: the report says `unconfined` on its own).
 */
export function presetOfConfig(config: StoredConfig): Record<string, string | number | boolean> {
  const values = valuesOfConfig(config) as Readonly<Record<string, unknown>>;
  const out: Record<string, string | number | boolean> = {};
  for (const s of SETTING_LIST) {
    const v = values[s.key];
    if (v !== undefined && !s.notInPreset) out[presetKeyOf(s)] = s.value.spell(v as never);
  }
  return out;
}
