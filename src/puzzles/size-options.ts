import type { Result, ScrambleSpec } from '../core/types.ts';
import type { Puzzle, SizeOption } from './puzzle.ts';

/** Size options as a user gives them (all optional); see {@link Puzzle.sizeOptions}. */
export type SizeOptions = { readonly [O in Exclude<SizeOption, 'randomGoal'>]?: number } & { readonly randomGoal?: boolean };

/**
 * Reads a scramble spec of `puzzle`'s kind from size options: the options as given, or the kind's
 * default spec when no size is given at all (a lone `randomGoal` keeps the default size), then checked
 * and completed by the kind.
 */
export function specFromSizeOptions(puzzle: Puzzle, o: SizeOptions): Result<ScrambleSpec> {
  const sized = o.size !== undefined || o.rows !== undefined || o.discs !== undefined;
  const spec: ScrambleSpec = {
    ...(sized ? { kind: puzzle.kind } : puzzle.defaultSpec),
    ...(o.size !== undefined ? { size: o.size } : {}),
    ...(o.rows !== undefined ? { rows: o.rows } : {}),
    ...(o.cols !== undefined ? { cols: o.cols } : {}),
    ...(o.discs !== undefined ? { discs: o.discs } : {}),
    ...(o.randomGoal ? { randomGoal: true } : {}),
  };
  return puzzle.normalizeSpec(spec);
}

/**
 * Help text for one size option across the given kinds: each meaning followed by the kinds that read the
 * option that way, e.g. "square side (sliding, swaps) or n, a perfect square (warehouse)".
 */
export function sizeOptionHelp(option: SizeOption, kinds: readonly Puzzle[]): string {
  const byMeaning = new Map<string, string[]>();
  for (const p of kinds) {
    const meaning = p.sizeOptions[option];
    if (meaning !== undefined) byMeaning.set(meaning, [...(byMeaning.get(meaning) ?? []), p.kind]);
  }
  return [...byMeaning].map(([meaning, names]) => `${meaning} (${names.join(', ')})`).join(' or ');
}
