/**
 * Verdict codes for one bot on one scramble. Only `solved` scores; everything else is a loss to a solve.
 * `memory`: the bot outgrew its memory limit (killed, or its allocation failed and it died of it).
 */
export const VERDICTS = ['solved', 'invalid', 'timeout', 'crash', 'protocol', 'unsupported', 'gave-up', 'memory'] as const;

/** One of {@link VERDICTS}. */
export type Verdict = (typeof VERDICTS)[number];

/** True when `v` is a known verdict code. */
export function isVerdict(v: unknown): v is Verdict {
  return typeof v === 'string' && (VERDICTS as readonly string[]).includes(v);
}
