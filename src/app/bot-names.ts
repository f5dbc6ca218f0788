/**
 * The one canonical form of a registered bot's name, and the look-alike rule. Results are recorded under a
 * bot's name, so two names a reader cannot tell apart (`dijkstra` and `Dijkstra`, `dijkstra.`, `d1jkstra`)
 * would split or impersonate a bot's record.
 */
import type { Result } from '../core/types.ts';
import { reject } from '../core/types.ts';

/** Lowercase letters and digits in words joined by single '-', '_' or '.'; at most 64 characters. */
const CANONICAL = /^[a-z0-9]+(?:[-_.][a-z0-9]+)*$/;
const MAX_LENGTH = 64;

/**
 * What a name looks like to a reader: case folded, separators dropped, and the characters most often
 * confused with each other mapped to one (0/o, 1/l/i). Two names with the same skeleton are look-alikes.
 */
export function nameSkeleton(name: string): string {
  return name
    .toLowerCase()
    .replace(/[-_.\s]/g, '')
    .replace(/0/g, 'o')
    .replace(/[1i|]/g, 'l');
}

/** Checks that `name` is canonical; the reason says what the canonical form is. */
export function checkBotName(name: string): Result<string> {
  if (name.length === 0) return reject('bad-name', 'a bot name cannot be empty');
  if (name.length > MAX_LENGTH) return reject('bad-name', `bot name is ${name.length} characters long; at most ${MAX_LENGTH}`);
  if (!CANONICAL.test(name)) {
    const lower = name.toLowerCase();
    const hint = lower !== name && CANONICAL.test(lower) ? ` (did you mean "${lower}"?)` : '';
    return reject(
      'bad-name',
      `bad bot name "${name}": lowercase letters and digits, words joined by single '-', '_' or '.'${hint}`,
    );
  }
  return { ok: true, value: name };
}

/** The first of `taken` that `name` is a look-alike of (same skeleton), if any. */
export function lookAlike(name: string, taken: Iterable<string>): string | undefined {
  const skeleton = nameSkeleton(name);
  for (const other of taken) if (nameSkeleton(other) === skeleton) return other;
  return undefined;
}

/** Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: optimal string alignment distance. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The known name `name` most likely meant, for a "did you mean": a look-alike, else the nearest by edits
 * (compared as skeletons, so case and separators are free) when it is within a third of the name's length.
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const twin = lookAlike(name, known);
  if (twin) return twin;
  const skeleton = nameSkeleton(name);
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = editDistance(skeleton, nameSkeleton(k));
    if (!best || d < best.d) best = { name: k, d };
  }
  return best && best.d <= Math.max(1, Math.floor(skeleton.length / 3)) ? best.name : undefined;
}
