import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MessageBounds } from '../../src/protocol/bounds.ts';
import { BOT_MESSAGE_BOUNDS, checkBounds } from '../../src/protocol/bounds.ts';

const small: MessageBounds = { maxBytes: 10_000, maxDepth: 4, maxKeys: 3, maxElements: 5, maxKeyLength: 4, maxString: 6 };

/**
 * The oracle: the same limits measured on the parsed value by plain recursion (fine for the shallow values
 * generated here), with string lengths as they appear in the JSON text.
 */
function measure(v: unknown, depth = 0): string | undefined {
  if (typeof v === 'string') return JSON.stringify(v).length - 2 > small.maxString ? 'string' : undefined;
  if (typeof v !== 'object' || v === null) return undefined;
  if (depth + 1 > small.maxDepth) return 'depth';
  const entries = Array.isArray(v) ? v.map((x) => ['', x] as const) : Object.entries(v);
  if (Array.isArray(v) ? v.length > small.maxElements : entries.length > small.maxKeys) return 'width';
  for (const [k, x] of entries) {
    if (!Array.isArray(v) && JSON.stringify(k).length - 2 > small.maxKeyLength) return 'key';
    const inner = measure(x, depth + 1);
    if (inner) return inner;
  }
  return undefined;
}

describe('checkBounds', () => {
  it('accepts every legal bot message shape, including a 100,000-pair chunk', () => {
    const pairs = Array.from({ length: 100_000 }, (_, i) => [i, i + 1]);
    for (const m of [
      { type: 'hello', protocol: 1, name: 'x', version: '1', capabilities: [{ kind: 'sliding', maxSize: 9 }] },
      { type: 'moves', id: 'r', moves: pairs, final: true, info: { optimal: true, note: 'a "quoted" [note] {x}' } },
      { type: 'moves', id: 'r', moves: 'U'.repeat(1 << 20), final: false },
    ]) {
      expect(checkBounds(JSON.stringify(m), BOT_MESSAGE_BOUNDS)).toBeUndefined();
    }
  });

  it('refuses a nesting 100,000 deep without recursing, in arrays and objects alike', () => {
    const n = 100_000;
    expect(checkBounds(`{"type":${'['.repeat(n)}${']'.repeat(n)}}`, BOT_MESSAGE_BOUNDS)).toBe('nesting deeper than 8 levels');
    expect(checkBounds(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`, BOT_MESSAGE_BOUNDS)).toBe('nesting deeper than 8 levels');
  });

  it('counts depth exactly: maxDepth passes, one more does not', () => {
    expect(checkBounds('[[[[1]]]]', small)).toBeUndefined();
    expect(checkBounds('[[[[[1]]]]]', small)).toBe('nesting deeper than 4 levels');
  });

  it('ignores brackets, commas and escaped quotes inside strings', () => {
    expect(checkBounds('["[[[[","\\"[[[["]', { ...small, maxString: 10 })).toBeUndefined();
    // An escaped backslash does not escape the quote after it: the string ends there and the brackets count.
    expect(checkBounds('["\\\\",[[[[1]]]]]', small)).toBe('nesting deeper than 4 levels');
    expect(checkBounds('{"k":",,,,,,,,"}', { ...small, maxString: 10 })).toBeUndefined();
  });

  it('bounds keys per object, elements per array, key and string lengths', () => {
    expect(checkBounds('{"a":1,"b":2,"c":3}', small)).toBeUndefined();
    expect(checkBounds('{"a":1,"b":2,"c":3,"d":4}', small)).toBe('an object with more than 3 keys');
    expect(checkBounds('[1,2,3,4,5]', small)).toBeUndefined();
    expect(checkBounds('[1,2,3,4,5,6]', small)).toBe('an array with more than 5 elements');
    expect(checkBounds('{"abcd":"abcdef"}', small)).toBeUndefined();
    expect(checkBounds('{"abcde":1}', small)).toBe('an object key longer than 4 characters');
    expect(checkBounds('{"a":"abcdefg"}', small)).toBe('a string longer than 6 characters');
    expect(checkBounds('["abcdefg"]', small)).toBe('a string longer than 6 characters');
  });

  it('counts UTF-8 bytes, not characters', () => {
    const b = { ...BOT_MESSAGE_BOUNDS, maxBytes: 10 };
    expect(checkBounds('"ééé"', b)).toBeUndefined(); // 8 bytes
    expect(checkBounds('"ééééé"', b)).toBe('message larger than 10 bytes'); // 12 bytes
  });

  it('leaves text that is not JSON to JSON.parse', () => {
    for (const text of ['', '"unterminated', ']]]', '{"a":', '\u0000']) expect(checkBounds(text, small)).toBeUndefined();
  });

  it('agrees with a recursive measurement of the parsed value on 5,000 random values', () => {
    const value = fc.letrec((tie) => ({
      any: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.string({ maxLength: 9, unit: 'binary' }), fc.integer(), fc.constant(null), tie('arr'), tie('obj')),
      arr: fc.array(tie('any'), { maxLength: 7 }),
      obj: fc.dictionary(fc.string({ maxLength: 6, unit: 'binary' }), tie('any'), { maxKeys: 5 }),
    })).any;
    fc.assert(
      fc.property(value, (v) => {
        expect(checkBounds(JSON.stringify(v), small) === undefined).toBe(measure(v) === undefined);
      }),
      { seed: 8, numRuns: 5_000 },
    );
  });
});
