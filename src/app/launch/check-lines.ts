/**
 * One bug, one line: a bot that fails every request the same way (text on its stdout, a crash on each
 * start) breaks many checks of a compliance run with one cause. Later failures whose reason ends with an
 * earlier one's (times and counts aside; the cancel check words it "after a cancel the next request got
 * <reason>") are folded into the first, which says where else it happened.
 */
import type { CheckLine } from '../../referee/compliance.ts';

/** A failure's reason without the numbers that differ from one request to the next (times, move indices). */
const causeOf = (detail: string): string => detail.replace(/\d+(\.\d+)?/g, '#');

/** `lines` with each repeated failure folded into its first occurrence. */
export function collapseRepeats(lines: readonly CheckLine[]): CheckLine[] {
  const out: CheckLine[] = [];
  const first = new Map<string, { index: number; also: string[] }>();
  for (const l of lines) {
    const cause = causeOf(l.detail);
    const seen = l.ok ? undefined : [...first.entries()].find(([c]) => cause.endsWith(c))?.[1];
    if (seen) {
      seen.also.push(l.what);
      continue;
    }
    if (!l.ok) first.set(cause, { index: out.length, also: [] });
    out.push(l);
  }
  for (const { index, also } of first.values()) {
    if (also.length) out[index] = { ...out[index]!, detail: `${out[index]!.detail} (the same on ${also.length} more: ${also.join(', ')})` };
  }
  return out;
}
