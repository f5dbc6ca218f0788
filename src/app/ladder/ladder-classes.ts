/**
 * The puzzle classes a ladder keeps, as people write them ("sliding 3x3", "hanoi 12", "warehouse 16"), made
 * into scramble specs without knowing any kind: a size word "RxC" is rows and columns, a bare number is
 * tried as each kind's single size, and the spec whose goal the puzzle names exactly that class wins.
 */
import type { PuzzleKind, Result, ScrambleSpec } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { puzzleKinds } from '../../puzzles/index.ts';
import { specSamples } from '../../referee/preflight.ts';

/** The issue's standard classes, one per kind and size people compare bots on. */
export const DEFAULT_LADDER_CLASSES: readonly string[] = ['sliding 3x3', 'sliding 4x4', 'sliding 10x10', 'hanoi 12', 'swaps 10x10', 'warehouse 16'];

/** A class and how to make its scrambles. */
export interface LadderClass {
  readonly name: string;
  readonly spec: ScrambleSpec;
}

/** Parses one class; a one-line rejection names what is wrong. */
export function parseLadderClass(text: string): Result<LadderClass> {
  const words = text.trim().split(/\s+/);
  const [kind, size, ...rest] = words;
  if (!kind || !size) return reject('bad-class', `puzzle class "${text}" needs a kind and a size, e.g. "sliding 3x3" or "hanoi 12"`);
  if (!puzzleKinds().includes(kind)) return reject('bad-class', `puzzle class "${text}": unknown kind ${kind} (known: ${puzzleKinds().join(', ')})`);
  const randomGoal = rest.length === 1 && rest[0] === 'random-goal';
  if (rest.length > 0 && !randomGoal) return reject('bad-class', `puzzle class "${text}": unexpected "${rest.join(' ')}"`);
  const grid = /^(\d+)x(\d+)$/.exec(size);
  const n = /^\d+$/.test(size) ? Number(size) : undefined;
  if (!grid && n === undefined) return reject('bad-class', `puzzle class "${text}": size must be a number or RxC, got "${size}"`);
  const extra = randomGoal ? { randomGoal: true } : {};
  // The kind is one of puzzleKinds() (checked above).
  const k = kind as PuzzleKind;
  const candidates: ScrambleSpec[] = grid
    ? [{ kind: k, rows: Number(grid[1]), cols: Number(grid[2]), ...extra }]
    : [{ kind: k, discs: n, ...extra }, { kind: k, size: n, ...extra }];
  const name = words.join(' ');
  let why = '';
  for (const spec of candidates) {
    const s = specSamples(spec);
    // A random goal is drawn per scramble, so the spec's goal names the class without it.
    if (s.ok && s.value[0]?.puzzleClass === (randomGoal ? words.slice(0, 2).join(' ') : name)) return { ok: true, value: { name, spec } };
    if (!s.ok && !why) why = s.reason;
  }
  return reject('bad-class', `puzzle class "${text}" is not a class of ${kind}${why ? `: ${why}` : ''}`);
}

/** Parses the classes of `--puzzle` (default the issue's standard ones); duplicates are dropped. */
export function parseLadderClasses(texts: readonly string[] | undefined): Result<LadderClass[]> {
  const out: LadderClass[] = [];
  for (const t of texts && texts.length ? texts : DEFAULT_LADDER_CLASSES) {
    const c = parseLadderClass(t);
    if (!c.ok) return c;
    if (!out.some((x) => x.name === c.value.name)) out.push(c.value);
  }
  return { ok: true, value: out };
}
