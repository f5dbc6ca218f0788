import { z } from 'zod';
import { byteSize, duration, MATCH_SETTINGS, wholeNumber } from '../app/settings.ts';
import type { ScrambleSpec } from '../core/types.ts';
import { allPuzzles, getPuzzle, type SizeOption } from '../puzzles/index.ts';
import { sizeOptionHelp, specFromSizeOptions } from '../puzzles/size-options.ts';
import { CliError, must } from './errors.ts';

/** The seed's reader, the match setting's. */
const SEED = MATCH_SETTINGS.seed.value;

/** An inclusive range of accepted values. */
export interface Range {
  readonly min: number;
  readonly max: number;
}

/**
 * A size flag's number. Only its form is checked here: its range is the puzzle kind's, which says it in one
 * message for every out-of-range value (0 and 1 alike), so a flag never has two range messages.
 */
function sizeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) throw new CliError(`--${name} must be a whole number, got "${value}"`);
  return Number(value.trim());
}

/** Parses a whole-number flag within `range`, with a one-line error naming the flag and the range. */
export function intFlag(name: string, value: string | undefined, range: Range): number | undefined {
  return value === undefined ? undefined : must(wholeNumber('', range).read(value), `--${name}`);
}

/**
 * Parses a duration with its unit ("500ms", "10s", "2m", "1h") within `range` (ms). A bare number is
 * refused with the unit it most likely meant (`typicalMs`, the flag's usual value, default 10 s, decides:
 * 10 -> 10s). The same reader as the match settings', so every time flag words a mistake alike.
 */
export function durationFlag(name: string, value: string | undefined, range: Range, typicalMs = 10_000): number | undefined {
  return value === undefined ? undefined : must(duration('', range, typicalMs, z.number()).read(value), `--${name}`);
}

/** A duration in whole seconds within `range` (seconds), given with its unit like any other time ("5s", "2m"). */
export function secondsFlag(name: string, value: string | undefined, range: Range, typicalSeconds: number): number | undefined {
  const ms = durationFlag(name, value, { min: range.min * 1000, max: range.max * 1000 }, typicalSeconds * 1000);
  if (ms === undefined) return undefined;
  if (ms % 1000 !== 0) throw new CliError(`--${name} must be whole seconds, got "${value}"`);
  return ms / 1000;
}

/** A seed: any non-empty text up to the stored limit (the match setting's reader). */
export function seedFlag(value: string | undefined): string | undefined {
  return value === undefined ? undefined : must(SEED.read(value), '--seed');
}

/**
 * Parses a memory size with its unit ("512m", "2GiB", "1.5g"; binary units) within [min, max] bytes. A bare
 * number is refused with the unit it most likely meant (`typical` bytes decides: 512 -> 512m).
 */
export function byteSizeFlag(name: string, value: string | undefined, min: number, max: number, typical = 2 ** 30): number | undefined {
  return value === undefined ? undefined : must(byteSize('', { min, max }, typical).read(value), `--${name}`);
}

/** The size flags shared by `scramble` and `match`. */
export interface SizeFlags {
  size?: string;
  rows?: string;
  cols?: string;
  discs?: string;
  randomGoal?: boolean;
}

/** Help text of a size flag, from what each kind says the option means. */
export function sizeFlagHelp(option: SizeOption): string {
  return sizeOptionHelp(option, allPuzzles());
}

/** Maps a kind and the size flags to a validated scramble spec (the kind module checks ranges). */
export function specFromFlags(kind: string, f: SizeFlags): ScrambleSpec {
  const puzzle = must(getPuzzle(kind));
  const rows = sizeNumber('rows', f.rows);
  const cols = sizeNumber('cols', f.cols);
  const size = sizeNumber('size', f.size);
  const discs = sizeNumber('discs', f.discs);
  if ((rows === undefined) !== (cols === undefined)) throw new CliError('--rows and --cols go together');
  if (size !== undefined && rows !== undefined) throw new CliError('give either --size or --rows/--cols, not both');
  const options = {
    ...(size !== undefined ? { size } : {}),
    ...(rows !== undefined ? { rows, cols } : {}),
    ...(discs !== undefined ? { discs } : {}),
    ...(f.randomGoal ? { randomGoal: true } : {}),
  };
  return must(specFromSizeOptions(puzzle, options), `bad ${kind} size`);
}
