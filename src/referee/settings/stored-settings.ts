/**
 * The stored side of the settings: the types of a setting's value, of the start options and of the stored
 * config, the zod shape a stored config is checked against, and the settings read back out of one. All of
 * it is read off MATCH_SETTINGS, so a new entry there is stored, checked and read back with no edit here.
 */
import { z } from 'zod';
import type { ScrambleSpec } from '../../core/types.ts';
import type { ValueType } from './value-types.ts';
import { MATCH_SETTINGS, SETTING_LIST } from './match-settings.ts';
import type { Setting, SettingPart } from './setting.ts';

type Settings = typeof MATCH_SETTINGS;
/** The name of a setting: its key in the stored config and in the start options. */
export type SettingName = keyof Settings;
/** The value of setting `N`, in its stored form (milliseconds, bytes, an SPRT design). */
export type SettingValue<N extends SettingName> = Settings[N]['value'] extends ValueType<infer V> ? V : never;
type NamesOf<P extends SettingPart> = { [N in SettingName]: Settings[N]['part'] extends P ? N : never }[SettingName];
type RequiredNames = { [N in SettingName]: Settings[N] extends { readonly required: true } ? N : never }[SettingName];

/** Settings as given (a flag, a preset), each optional. */
export type SettingValues = { readonly [N in SettingName]?: SettingValue<N> };

/** The settings a match service takes as start options, as stored (each optional: absent, its default). */
export type PlaySettings = { readonly [N in NamesOf<'play'>]?: SettingValue<N> };

/** The settings a stored config holds at its top level (the spec settings are inside `spec`). */
export type StoredSettings = { readonly [N in Exclude<NamesOf<'play' | 'source'>, RequiredNames>]?: SettingValue<N> } & {
  readonly [N in Extract<NamesOf<'play' | 'source'>, RequiredNames>]: SettingValue<N>;
};

const byName = MATCH_SETTINGS as unknown as Readonly<Record<SettingName, Setting>>;

/** The setting called `name`. */
export function settingOf(name: SettingName): Setting {
  return byName[name];
}

const field = (s: Setting) => (s.required ? s.value.stored : s.value.stored.optional());

/** The runtime check of a stored `spec`, from the spec settings. */
export const specSchema = z.strictObject(Object.fromEntries(SETTING_LIST.filter((s) => s.part === 'spec').map((s) => [s.key, field(s)])));

/** The stored config's top-level settings, from every other setting. */
export const storedSettingsShape: Readonly<Record<string, z.ZodType>> = Object.fromEntries(SETTING_LIST.filter((s) => s.part !== 'spec').map((s) => [s.key, field(s)]));

/**
 * Settings as a stored config keeps them: each given one, less those equal to their `omitted` value, which
 * the stored format leaves out (absent means the same, for configs written before the setting).
 */
export function storedFields(values: SettingValues, part: SettingPart): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of SETTING_LIST) {
    const v = (values as Record<string, unknown>)[s.key];
    if (s.part === part && v !== undefined && v !== s.omitted) out[s.key] = v;
  }
  return out;
}

/** The settings a stored config holds, read back (the spec's from inside `spec`); absent ones stay absent. */
export function valuesOfConfig(config: Readonly<Record<string, unknown>> & { readonly spec?: ScrambleSpec }): SettingValues {
  const out: Record<string, unknown> = {};
  for (const s of SETTING_LIST) {
    const from: Readonly<Record<string, unknown>> | undefined = s.part === 'spec' ? (config.spec as Readonly<Record<string, unknown>> | undefined) : config;
    const v = from?.[s.key];
    if (v !== undefined) out[s.key] = v;
  }
  return out as SettingValues;
}

/** The play settings of `given`, each one it leaves out (or undefined) at its default, where it has one. */
export function playWithDefaults(given: PlaySettings): PlaySettings {
  const out: Record<string, unknown> = {};
  for (const s of SETTING_LIST) {
    const v = (given as Record<string, unknown>)[s.key] ?? s.default;
    if (s.part === 'play' && v !== undefined) out[s.key] = v;
  }
  return out as PlaySettings;
}
