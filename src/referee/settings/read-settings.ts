/**
 * Reads settings from where people give them: the flags of `arena match` (as commander hands them over)
 * and the fields of a preset. Both name a setting the same way (the flag in camelCase) and read its value
 * with the same reader, so a value means the same and a mistake is worded the same in either place.
 */
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { SETTING_LIST } from './match-settings.ts';
import { presetKeyOf, type Setting } from './setting.ts';
import type { SettingValues } from './stored-settings.ts';

/** Where settings come from: the command line (reasons name the flag) or a preset (they name the field). */
export type SettingSource = 'flags' | 'preset';

/** Whether commander's value says a switch was given: `--affinity` is true, `--no-warm-up` false (and true when absent). */
function switchGiven(s: Setting, v: unknown): boolean {
  return s.flag.startsWith('no-') ? v === false : v === true;
}

/**
 * The settings in `given` (flags by commander's names, or a preset's fields): each read and checked, the
 * first mistake a rejection naming the flag (`--count must be …`) or the field (`"timeLimit" needs a unit …`).
 * Keys that are not settings are left to the caller; with `only` (setting names), so are settings not in it
 * (a command whose own flag shares a setting's name, like the ladder's `--scrambles <n>`).
 */
export function readSettings(given: Readonly<Record<string, unknown>>, from: SettingSource, only?: readonly string[]): Result<SettingValues> {
  const out: Record<string, unknown> = {};
  for (const s of SETTING_LIST) {
    if (only && !only.includes(s.key)) continue;
    const name = presetKeyOf(s);
    if (!Object.hasOwn(given, name) || given[name] === undefined) continue;
    const raw = given[name];
    const subject = from === 'flags' ? `--${s.flag}` : JSON.stringify(name);
    if (from === 'preset' && s.notInPreset) return reject('not-in-preset', `${subject}: ${s.notInPreset}`);
    if (from === 'flags' && 'whenGiven' in s.value) {
      if (switchGiven(s, raw)) out[s.key] = s.value.whenGiven;
      continue;
    }
    const r = s.value.read(raw);
    if (!r.ok) return reject(r.code, `${subject} ${r.reason}`);
    out[s.key] = r.value;
  }
  return ok(out as SettingValues);
}

/** The preset field of every setting a preset may set. */
export function presetKeys(): string[] {
  return SETTING_LIST.filter((s) => !s.notInPreset).map(presetKeyOf);
}
