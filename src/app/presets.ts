/** Match presets: matches/<name>.json, runnable by name (`arena match --preset sliding-4x4`). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import { MATCH_DEFAULTS, MATCH_LIMITS } from '../referee/match-config.ts';
import { readText } from './inputs.ts';
import { parseDuration } from './units.ts';

/** The fields a preset file may set; the same names as the match command's flags. */
export interface Preset {
  bots?: string[];
  puzzle?: string;
  size?: number;
  rows?: number;
  cols?: number;
  discs?: number;
  randomGoal?: boolean;
  count?: number;
  seed?: string | number;
  walk?: number;
  timeLimit?: string;
  maxMoves?: number;
  concurrency?: number;
  /** A scramble file (JSON Lines), relative to the preset's folder. */
  scrambles?: string;
  description?: string;
}

const KEYS = new Set(['bots', 'puzzle', 'size', 'rows', 'cols', 'discs', 'randomGoal', 'count', 'seed', 'walk', 'timeLimit', 'maxMoves', 'concurrency', 'scrambles', 'description']);

/**
 * Why a preset's time limit cannot be read, if it cannot: like the flag, it is a string with its unit
 * ("30s"); a bare number (JSON 30 or "30") is refused with the unit it most likely meant.
 */
function timeUnitProblem(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') return 'must be a time with its unit, e.g. "30s"';
  const r = parseDuration(String(v), { ...MATCH_LIMITS.timeLimitMs, typical: MATCH_DEFAULTS.timeLimitMs });
  return r.ok ? undefined : r.reason;
}

/** Loads a preset by name (matches/<name>.json) or by path; unknown keys are a rejection, not ignored. */
export function loadPreset(arg: string, projectRoot: string): Result<Preset> {
  const candidates = [arg, join(projectRoot, 'matches', arg), join(projectRoot, 'matches', `${arg}.json`)];
  const file = candidates.find((f) => existsSync(f) && f.endsWith('.json'));
  if (!file) return reject('no-preset', `no preset "${arg}" (looked for a file and for matches/${arg}.json)`);
  const text = readText(file);
  if (!text.ok) return text;
  let value: unknown;
  try {
    value = JSON.parse(text.value);
  } catch (e) {
    return reject('bad-preset', `preset ${file}: not valid JSON (${(e as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return reject('bad-preset', `preset ${file}: must be a JSON object`);
  for (const k of Object.keys(value)) if (!KEYS.has(k)) return reject('bad-preset', `preset ${file}: unknown field "${k}"`);
  const preset = value as Preset;
  const unit = timeUnitProblem((value as { timeLimit?: unknown }).timeLimit);
  if (unit) return reject('bad-preset', `preset ${file}: "timeLimit" ${unit}`);
  return { ok: true, value: preset.scrambles ? { ...preset, scrambles: join(dirname(file), preset.scrambles) } : preset };
}
