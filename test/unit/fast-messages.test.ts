import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VERDICTS } from '../../src/core/verdict.ts';
import { fastMovesMessage, fastResultMessage } from '../../src/protocol/fast-messages.ts';
import { messageSchemas, parseRefereeMessage } from '../../src/protocol/schema.ts';

/** Values a field may take: right types, wrong types, edges of the ranges. */
const anyValue = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 1.5, -1.5, 2 ** 53, 2 ** 53 - 1, true, false, null, '', 'x', 'U'.repeat(201), [], {}, [[1, 2]], [[1, 2, 3]], [[1.5, 2]]),
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const idValue = fc.oneof(fc.constantFrom('', 'r1', 'x'.repeat(200), 'x'.repeat(201)), anyValue);
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** A JSON object with some of `keys` (each from its arbitrary), maybe an unknown key too, as JSON.parse gives it. */
function jsonObject(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown>> {
  const parts = Object.fromEntries(Object.entries(fields).map(([k, a]) => [k, optional(a)]));
  return fc.record({ ...parts, extra: optional(anyValue) }).map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);
}

const info = fc.oneof(jsonObject({ optimal: anyValue, computeMs: anyValue, nodes: anyValue, note: fc.oneof(anyValue, fc.constant('n'.repeat(10_001))) }), anyValue);
const moves = jsonObject({ id: idValue, moves: anyValue, final: anyValue, info }).map((o) => ({ ...o, type: 'moves' }));
const result = jsonObject({ id: idValue, verdict: fc.oneof(fc.constantFrom(...VERDICTS), anyValue), moves: anyValue, timeMs: anyValue, index: anyValue, reason: anyValue }).map(
  (o) => ({ ...o, type: 'result' }),
);

describe('plain-code message checks', () => {
  it('accept a moves message only when zod accepts it, and then as zod returns it', () => {
    fc.assert(
      fc.property(moves, (m) => {
        const fast = fastMovesMessage(m);
        if (!fast) return;
        const z = messageSchemas.bot.moves!.safeParse(m);
        expect(z.success).toBe(true);
        expect(fast).toEqual(z.data);
      }),
      { numRuns: 5000 },
    );
  });

  it('accept a result message only when zod accepts it, and then as zod returns it', () => {
    fc.assert(
      fc.property(result, (m) => {
        const fast = fastResultMessage(m);
        if (!fast) return;
        const z = messageSchemas.referee.result!.safeParse(m);
        expect(z.success).toBe(true);
        expect(fast).toEqual(z.data);
      }),
      { numRuns: 5000 },
    );
  });

  it('take the common messages themselves (no fall-back to zod for them)', () => {
    expect(fastMovesMessage({ type: 'moves', id: 'r', moves: 'LU', final: true, info: { computeMs: 0.1, optimal: true } })).toBeDefined();
    expect(fastMovesMessage({ type: 'moves', id: 'r', moves: [[1, 2]], final: false })).toBeDefined();
    expect(fastResultMessage({ type: 'result', id: 'r', verdict: 'solved', moves: 2, timeMs: 0 })).toBeDefined();
  });

  it('parse a solve as zod does, puzzle and all', () => {
    const solve = { type: 'solve', id: 'r', puzzle: { kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 0, 3] }, timeLimitMs: 10, maxMoves: 5 };
    const r = parseRefereeMessage(JSON.stringify(solve));
    expect(r).toEqual({ ok: true, message: messageSchemas.referee.solve!.parse(solve) });
    const bad = parseRefereeMessage(JSON.stringify({ ...solve, puzzle: { ...solve.puzzle, rows: -1 } }));
    expect(bad.ok).toBe(false);
  });
});
