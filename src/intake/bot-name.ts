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
