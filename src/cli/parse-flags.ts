import type { ScrambleSpec } from '../core/types.ts';
import { allPuzzles, getPuzzle, type SizeOption } from '../puzzles/index.ts';
import { sizeOptionHelp, specFromSizeOptions } from '../puzzles/size-options.ts';
import { CliError, must } from './errors.ts';

/** Parses a positive integer flag, with a one-line error naming the flag. */
export function intFlag(name: string, value: string | undefined, min = 1): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) throw new CliError(`--${name} must be a whole number, got "${value}"`);
  const n = Number(value);
  if (n < min) throw new CliError(`--${name} must be at least ${min}, got ${n}`);
  return n;
}

/** Parses a duration: "10s", "500ms", "2m" or a bare number of milliseconds. */
export function durationFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  if (!m) throw new CliError(`--${name} must be a duration like 500ms, 10s or 2m, got "${value}"`);
  const scale = m[2] === 's' ? 1000 : m[2] === 'm' ? 60_000 : 1;
  const ms = Number(m[1]) * scale;
  if (!(ms > 0)) throw new CliError(`--${name} must be positive`);
  return Math.round(ms);
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
  const rows = intFlag('rows', f.rows);
  const cols = intFlag('cols', f.cols);
  const size = intFlag('size', f.size);
  const discs = intFlag('discs', f.discs);
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
