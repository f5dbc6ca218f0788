/**
 * The project's bot-name rules. They live in src/intake (the lowest layer that needs them: a submitted
 * manifest is checked there, below app); app keeps this module so its callers import from one place, and
 * adds the "did you mean" of an unknown name.
 */
import { lookAlike, nameSkeleton } from '../../intake/bot-name.ts';

export { checkBotName, lookAlike, nameSkeleton } from '../../intake/bot-name.ts';

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
