/**
 * What one match setting declares, once: its flag and help, where it is stored, its default, and
 * whether a preset may set it. The CLI's flags, the presets, the stored config, `--json` and the web's
 * configuration view are all read off these declarations (see match-settings.ts for the list).
 */
import type { ValueType } from './value-types.ts';

/**
 * Which part of a match a setting shapes, which decides where it goes: `spec` settings become the stored
 * `spec` (through the puzzle kind, which completes and checks it), `source` settings say where the
 * scrambles come from, and `play` settings are the start options of the match service, stored as they are.
 */
export type SettingPart = 'spec' | 'source' | 'play';

/** One match setting. */
export interface Setting<V = unknown, K extends string = string> {
  /** The flag without its dashes, kebab-case (`time-limit`, `no-warm-up`). */
  readonly flag: string;
  /** Its key in the stored config (inside `spec` for a spec setting) and in the start options. */
  readonly key: K;
  readonly part: SettingPart;
  readonly value: ValueType<V>;
  /**
   * The flag's help, without the default (helpOf adds a fixed one); a function when it is read off something
   * registered at run time (puzzle kinds).
   */
  readonly help: string | (() => string);
  /** The value of a new match that does not give one. */
  readonly default?: V;
  /** Every stored config has it (else it may be absent). */
  readonly required?: boolean;
  /** Not stored when it has this value: absent means the same (the stored format predates the setting). */
  readonly omitted?: V;
  /**
   * A switch's spelling before its default turned (`--affinity`, now the default): still accepted, hidden
   * from the help, and it asks for the default.
   */
  readonly formerFlag?: string;
  /** What a stored config without it means, as the web view says it (e.g. older matches). */
  readonly absent?: string;
  /** Why a preset may not set it, when it may not (said when a preset tries). */
  readonly notInPreset?: string;
  /** A value the setting accepts, spelled as in a preset: what the settings test plays through every surface. */
  readonly example: unknown;
}

/** The preset field of a setting: its flag in camelCase, without a `no-` (`--no-warm-up` → `warmUp`). */
export function presetKeyOf(s: Pick<Setting, 'flag'>): string {
  return s.flag.replace(/^no-/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** The flag as commander declares it (`--time-limit <t>`, `--affinity`). */
export function flagSpelling(s: Pick<Setting, 'flag' | 'value'>): string {
  return s.value.placeholder ? `--${s.flag} ${s.value.placeholder}` : `--${s.flag}`;
}

/**
 * A setting's help text now, ending with its default as the flag spells it when it has a fixed one (a
 * default that depends on something, like the machine's memory, is said in the help itself).
 */
export function helpOf(s: Pick<Setting, 'help' | 'default' | 'value'>): string {
  const help = typeof s.help === 'function' ? s.help() : s.help;
  return s.default !== undefined && s.value.placeholder ? `${help} (default ${String(s.value.spell(s.default))})` : help;
}
