/**
 * From settings as given (the flags of `arena match`, over a preset) to the options of a match to start:
 * the command line wins field by field, except that a size given on it replaces the preset's whole size,
 * and the spec settings become one scramble spec, completed and checked by the puzzle kind.
 */
import type { Result, ScrambleSpec } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { DEFAULT_KIND, getPuzzle } from '../../puzzles/index.ts';
import { specFromSizeOptions } from '../../puzzles/size-options.ts';
import { MATCH_DEFAULTS } from '../../referee/settings/match-settings.ts';
import { playWithDefaults, type SettingValues } from '../../referee/settings/stored-settings.ts';
import type { StartMatchOptions } from './matches.ts';
import type { Preset } from './presets.ts';

/** The size settings: given on the command line, they replace all of a preset's (a 3x4 board is not a 4x4's rows). */
const SIZE_KEYS = ['size', 'rows', 'cols', 'discs'] as const;

/** The flags over the preset: each flag wins; a size on the command line replaces the preset's size as a whole. */
export function mergeSettings(flags: SettingValues, preset: SettingValues = {}): SettingValues {
  const sized = SIZE_KEYS.some((k) => flags[k] !== undefined);
  const base: Record<string, unknown> = { ...preset };
  if (sized) for (const k of SIZE_KEYS) delete base[k];
  for (const [k, v] of Object.entries(flags)) if (v !== undefined) base[k] = v;
  return base as SettingValues;
}

/** The scramble spec the spec settings name (the kind's default size when none is given). */
export function specOf(v: SettingValues): Result<ScrambleSpec> {
  const kind = v.kind ?? DEFAULT_KIND;
  const puzzle = getPuzzle(kind);
  if (!puzzle.ok) return puzzle;
  if ((v.rows === undefined) !== (v.cols === undefined)) return reject('bad-size', '--rows and --cols go together');
  if (v.size !== undefined && v.rows !== undefined) return reject('bad-size', 'give either --size or --rows/--cols, not both');
  const spec = specFromSizeOptions(puzzle.value, {
    ...(v.size !== undefined ? { size: v.size } : {}),
    ...(v.rows !== undefined ? { rows: v.rows, cols: v.cols } : {}),
    ...(v.discs !== undefined ? { discs: v.discs } : {}),
    ...(v.randomGoal ? { randomGoal: true } : {}),
  });
  return spec.ok ? spec : reject(spec.code, `bad ${kind} size: ${spec.reason}`);
}

/** The options of a match to start from its bots and settings (flags merged over a preset: {@link mergeSettings}). */
export function startOptionsOf(bots: readonly string[], v: SettingValues, preset?: Pick<Preset, 'bots'>): Result<StartMatchOptions> {
  let scrambles: StartMatchOptions['scrambles'];
  if (v.scrambleFile !== undefined) {
    scrambles = { file: v.scrambleFile };
  } else {
    const spec = specOf(v);
    if (!spec.ok) return spec;
    scrambles = { spec: spec.value, count: v.count ?? MATCH_DEFAULTS.count, ...(v.walk !== undefined ? { walk: v.walk } : {}) };
  }
  return { ok: true, value: { bots: bots.length ? bots : (preset?.bots ?? []), scrambles, ...playWithDefaults(v) } };
}
