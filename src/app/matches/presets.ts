/**
 * Match presets: matches/<name>.json, runnable by name (`arena match --preset sliding-4x4`). A preset's
 * fields are the match command's flags in camelCase, read by the settings schema like the flags themselves
 * (src/referee/settings/), plus the bots and a description.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { presetKeyOf } from '../../referee/settings/setting.ts';
import { readSettings } from '../../referee/settings/read-settings.ts';
import { SETTING_LIST } from '../../referee/settings/match-settings.ts';
import type { SettingValues } from '../../referee/settings/stored-settings.ts';
import { readText } from './inputs.ts';

/** What a preset file gives: its bots, a description, and settings as read (times in ms, sizes in bytes). */
export interface Preset {
  readonly bots?: readonly string[];
  readonly description?: string;
  readonly settings: SettingValues;
}

/** Fields of a preset that are not settings. */
const OWN_KEYS = ['bots', 'description'];

/** Checks a preset's bots and description; the reason names the field. */
function ownFields(value: Record<string, unknown>): Result<Omit<Preset, 'settings'>> {
  const { bots, description } = value;
  if (bots !== undefined && !(Array.isArray(bots) && bots.every((b) => typeof b === 'string' && b.trim() !== ''))) return reject('bad-preset', '"bots" must be a list of bot names');
  if (description !== undefined && typeof description !== 'string') return reject('bad-preset', '"description" must be text');
  return { ok: true, value: { ...(bots !== undefined ? { bots: bots as string[] } : {}), ...(description !== undefined ? { description } : {}) } };
}

/** Reads a preset's JSON text: unknown fields and bad values are a rejection naming the field, never ignored. */
export function parsePreset(text: string): Result<Preset> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return reject('bad-preset', `not valid JSON (${(e as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return reject('bad-preset', 'must be a JSON object');
  const record = value as Record<string, unknown>;
  const known = new Set([...OWN_KEYS, ...SETTING_LIST.map(presetKeyOf)]);
  for (const k of Object.keys(record)) if (!known.has(k)) return reject('bad-preset', `unknown field "${k}"`);
  const own = ownFields(record);
  if (!own.ok) return own;
  const settings = readSettings(record, 'preset');
  if (!settings.ok) return settings;
  return { ok: true, value: { ...own.value, settings: settings.value } };
}

/** Loads a preset by name (matches/<name>.json) or by path; its scramble file is relative to its folder (or absolute, as --json's match.settings spells it). */
export function loadPreset(arg: string, projectRoot: string): Result<Preset> {
  const candidates = [arg, join(projectRoot, 'matches', arg), join(projectRoot, 'matches', `${arg}.json`)];
  const file = candidates.find((f) => existsSync(f) && f.endsWith('.json'));
  if (!file) return reject('no-preset', `no preset "${arg}" (looked for a file and for matches/${arg}.json)`);
  const text = readText(file);
  if (!text.ok) return text;
  const preset = parsePreset(text.value);
  if (!preset.ok) return reject(preset.code, `preset ${file}: ${preset.reason}`);
  const scrambleFile = preset.value.settings.scrambleFile;
  return scrambleFile === undefined ? preset : { ok: true, value: { ...preset.value, settings: { ...preset.value.settings, scrambleFile: resolve(dirname(file), scrambleFile) } } };
}
