import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VERDICTS } from '../../src/core/verdict.ts';
import { fastMovesMessage, fastResultMessage, fastSolveEnvelope } from '../../src/protocol/fast-messages.ts';
import { messageSchemas, parseBotMessage, parseRefereeMessage } from '../../src/protocol/schema.ts';

/**
 * Numbers at the edges: what JSON text can spell (1e999 is Infinity after JSON.parse, -1e999 is -Infinity,
 * 5e-324 the smallest double, 1e308 near the largest) and what a value in memory can hold (NaN).
 */
const edgeNumber = fc.oneof(
  fc.constantFrom(Infinity, -Infinity, NaN, 0, -0, 5e-324, -5e-324, 1e308, -1e308, 2 ** 53, 2 ** 53 + 2, Number.MAX_VALUE, Number.EPSILON),
  fc.double(),
);
const edgeValue = fc.oneof(edgeNumber, fc.constantFrom(null, true, '', '1', [], {}, [[Infinity, 1]], [[1, NaN]], [[1, 2]]));
const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** JSON text as a bot could write it: Infinity as 1e999, -Infinity as -1e999 (NaN has no spelling: null). */
function wireText(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => {
    if (v === Infinity) return '__INF__';
    if (v === -Infinity) return '__NINF__';
    return v;
  })
    .replaceAll('"__INF__"', '1e999')
    .replaceAll('"__NINF__"', '-1e999');
}

const info = fc.record({ optimal: optional(fc.boolean()), computeMs: optional(edgeValue), nodes: optional(edgeValue), note: optional(fc.constant('n')) });
const moves = fc.record({ type: fc.constant('moves'), id: fc.constant('r1'), moves: fc.oneof(fc.constant('LU'), edgeValue), final: fc.boolean(), info: optional(info) });
const result = fc.record({
  type: fc.constant('result'),
  id: fc.constant('r1'),
  verdict: fc.constantFrom(...VERDICTS),
  moves: edgeValue,
  timeMs: edgeValue,
  index: optional(edgeValue),
});
const solve = fc.record({
  type: fc.constant('solve'),
  id: fc.constant('r1'),
  puzzle: fc.constant({ kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 0, 3] }),
  timeLimitMs: edgeValue,
  maxMoves: edgeValue,
});

/** The verdict of the fast path and zod agree on the same parsed value, and the parser's answer is zod's. */
function agree(text: string, schema: { safeParse(v: unknown): { success: boolean; data?: unknown } }, fast: (j: Record<string, unknown>) => unknown, parse: (t: string) => { ok: boolean }): void {
  const json = JSON.parse(text) as Record<string, unknown>;
  const z = schema.safeParse(json);
  const quick = fast(json);
  if (quick) {
    expect(z.success, text).toBe(true);
    expect(quick).toEqual(z.data);
  }
  expect(parse(text).ok, text).toBe(z.success);
}

describe('fast path against the schema on edge numbers', () => {
  it('fast moves check - refuses computeMs 1e999 (Infinity) as the schema does', () => {
    const text = '{"type":"moves","id":"r1","moves":"LU","final":true,"info":{"computeMs":1e999}}';
    expect(fastMovesMessage(JSON.parse(text) as Record<string, unknown>)).toBeUndefined();
    expect(parseBotMessage(text).ok).toBe(false);
    expect(parseBotMessage(text.replace('1e999', '-1e999')).ok).toBe(false);
    expect(parseBotMessage(text.replace('computeMs', 'nodes')).ok).toBe(false);
  });

  it('fast result and solve checks - refuse an infinite time as the schema does', () => {
    expect(fastResultMessage({ type: 'result', id: 'r', verdict: 'solved', moves: 2, timeMs: Infinity })).toBeUndefined();
    expect(parseRefereeMessage('{"type":"result","id":"r","verdict":"solved","moves":2,"timeMs":1e999}').ok).toBe(false);
    expect(fastSolveEnvelope({ type: 'solve', id: 'r', puzzle: {}, timeLimitMs: Infinity, maxMoves: 1 })).toBe(false);
    expect(fastSolveEnvelope({ type: 'solve', id: 'r', puzzle: {}, timeLimitMs: NaN, maxMoves: 1 })).toBe(false);
  });

  it('fast checks - refuse NaN in memory where the schema refuses it', () => {
    const m = { type: 'moves', id: 'r', moves: 'L', final: true, info: { computeMs: NaN } };
    expect(fastMovesMessage(m)).toBeUndefined();
    expect(messageSchemas.bot.moves!.safeParse(m).success).toBe(false);
  });

  it('moves - fast path and schema agree over edge numbers written as JSON text', () => {
    fc.assert(
      fc.property(moves, (m) => agree(wireText(m), messageSchemas.bot.moves!, fastMovesMessage, parseBotMessage)),
      { numRuns: 3000 },
    );
  });

  it('result - fast path and schema agree over edge numbers written as JSON text', () => {
    fc.assert(
      fc.property(result, (m) => agree(wireText(m), messageSchemas.referee.result!, fastResultMessage, parseRefereeMessage)),
      { numRuns: 3000 },
    );
  });

  it('solve - fast envelope and schema agree over edge numbers written as JSON text', () => {
    const fastSolve = (j: Record<string, unknown>) => (fastSolveEnvelope(j) ? messageSchemas.referee.solve!.parse(j) : undefined);
    fc.assert(
      fc.property(solve, (m) => agree(wireText(m), messageSchemas.referee.solve!, fastSolve, parseRefereeMessage)),
      { numRuns: 3000 },
    );
  });

  it('moves - fast path and schema agree on values held in memory, NaN included', () => {
    fc.assert(
      fc.property(moves, (m) => {
        const quick = fastMovesMessage(m as Record<string, unknown>);
        if (quick) expect(messageSchemas.bot.moves!.safeParse(m).success).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
