import { MATCH_LIMITS } from '../app/matches.ts';
import type { ScrambleSpec } from '../core/types.ts';
import { allPuzzles, getPuzzle, type SizeOption } from '../puzzles/index.ts';
import { sizeOptionHelp, specFromSizeOptions } from '../puzzles/size-options.ts';
import { CliError, must } from './errors.ts';

/** An inclusive range of accepted values. */
export interface Range {
  readonly min: number;
  readonly max: number;
}

/** Sizes: the puzzle kinds check their own ranges; this only keeps the number exact. */
const ANY_SIZE: Range = { min: 1, max: Number.MAX_SAFE_INTEGER };

/** Parses a whole-number flag within `range`, with a one-line error naming the flag and the range. */
export function intFlag(name: string, value: string | undefined, range: Range): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < range.min || n > range.max) {
    throw new CliError(`--${name} must be a whole number from ${range.min} to ${range.max}, got "${value}"`);
  }
  return n;
}

/** Parses a duration ("10s", "500ms", "2m" or a bare number of milliseconds) within `range` (ms). */
export function durationFlag(name: string, value: string | undefined, range: Range): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  if (!m) throw new CliError(`--${name} must be a duration like 500ms, 10s or 2m, got "${value}"`);
  const scale = m[2] === 's' ? 1000 : m[2] === 'm' ? 60_000 : 1;
  const ms = Math.round(Number(m[1]) * scale);
  if (ms < range.min || ms > range.max) {
    throw new CliError(`--${name} must be from ${range.min} ms to ${range.max} ms (${range.max / 3_600_000} h), got "${value}"`);
  }
  return ms;
}

/** A seed: any non-empty text up to the stored limit. */
export function seedFlag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const { min, max } = MATCH_LIMITS.seedLength;
  if (value.trim().length < min) throw new CliError('--seed must not be empty');
  if (value.length > max) throw new CliError(`--seed must be at most ${max} characters, got ${value.length}`);
  return value;
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 2 ** 10, kib: 2 ** 10, m: 2 ** 20, mib: 2 ** 20, g: 2 ** 30, gib: 2 ** 30 };

/** Parses a memory size: "512m", "2GiB", "1.5g" (binary units) or a bare number of bytes, within [min, max]. */
export function byteSizeFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new CliError(`--${name} must be a size like 512m, 2g or 1.5GiB, got "${value}"`);
  const bytes = Math.floor(Number(m[1]) * unit);
  const show = (n: number) => `${+(n / 2 ** 20).toFixed(1)} MiB`;
  if (bytes < min || bytes > max) throw new CliError(`--${name} must be from ${show(min)} to ${show(max)}, got ${show(bytes)}`);
  return bytes;
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
  const rows = intFlag('rows', f.rows, ANY_SIZE);
  const cols = intFlag('cols', f.cols, ANY_SIZE);
  const size = intFlag('size', f.size, ANY_SIZE);
  const discs = intFlag('discs', f.discs, ANY_SIZE);
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
