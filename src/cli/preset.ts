import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from './context.ts';
import { CliError } from './errors.ts';

/** The fields a preset file (matches/<name>.json) may set; the same names as the command's flags. */
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

/** Loads a preset by name (matches/<name>.json) or by path; unknown keys are an error, not silently ignored. */
export function loadPreset(arg: string): Preset {
  const candidates = [arg, join(PROJECT_ROOT, 'matches', arg), join(PROJECT_ROOT, 'matches', `${arg}.json`)];
  const file = candidates.find((f) => existsSync(f) && f.endsWith('.json'));
  if (!file) throw new CliError(`no preset "${arg}" (looked for a file and for matches/${arg}.json)`);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new CliError(`preset ${file}: not valid JSON (${(e as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CliError(`preset ${file}: must be a JSON object`);
  for (const k of Object.keys(value)) if (!KEYS.has(k)) throw new CliError(`preset ${file}: unknown field "${k}"`);
  const preset = value as Preset;
  return preset.scrambles ? { ...preset, scrambles: join(dirname(file), preset.scrambles) } : preset;
}
