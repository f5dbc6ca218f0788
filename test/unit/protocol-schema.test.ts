import { describe, expect, it } from 'vitest';
import { parseBotMessage, parseRefereeMessage } from '../../src/protocol/schema.ts';

const hello = { type: 'hello', protocol: 1, name: 'b', version: '1', capabilities: [{ kind: 'sliding', maxSize: 9 }] };

describe('parseBotMessage', () => {
  const accepted: Array<[string, unknown]> = [
    ['hello', hello],
    ['hello without capabilities limits', { ...hello, capabilities: [{ kind: 'hanoi' }, { kind: 'warehouse' }] }],
    ['hello that may be reused', { ...hello, reuse: true }],
    ['string moves', { type: 'moves', id: 'r1', moves: 'UDLR', final: false }],
    ['empty string moves', { type: 'moves', id: 'r1', moves: '', final: true }],
    ['pair moves', { type: 'moves', id: 'r1', moves: [[6, 7], [2, 4]], final: true }],
    ['empty pair moves', { type: 'moves', id: 'r1', moves: [], final: true }],
    ['moves with info', { type: 'moves', id: 'r1', moves: 'U', final: true, info: { optimal: true, computeMs: 1.5, nodes: 12, note: 'bfs' } }],
    ['give-up', { type: 'give-up', id: 'r1', reason: 'too hard' }],
    ['give-up without reason', { type: 'give-up', id: 'r1' }],
    ['unsupported', { type: 'unsupported', id: 'r1', reason: 'no hanoi' }],
    ['unknown extra fields', { type: 'give-up', id: 'r1', extra: 1 }],
  ];
  it.each(accepted)('accepts %s', (_name, msg) => {
    const r = parseBotMessage(JSON.stringify(msg));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.message.type).toBe((msg as { type: string }).type);
  });

  const rejected: Array<[string, string, RegExp]> = [
    ['bad JSON', '{"type": "hello",', /^not JSON/],
    ['empty text', '', /^not JSON/],
    ['a JSON array', '[1,2]', /JSON object/],
    ['a JSON string', '"hello"', /JSON object/],
    ['null', 'null', /JSON object/],
    ['no type', '{"id":"x"}', /unknown bot message type undefined/],
    ['unknown type', '{"type":"welcome"}', /unknown bot message type "welcome"/],
    ['type not a string', '{"type":7}', /unknown bot message type 7/],
    ['hello protocol a string', JSON.stringify({ ...hello, protocol: '1' }), /^bad hello message: protocol/],
    ['hello unknown kind', JSON.stringify({ ...hello, capabilities: [{ kind: 'rubik' }] }), /capabilities\.0\.kind/],
    ['hello empty name', JSON.stringify({ ...hello, name: '' }), /name/],
    ['hello reuse not a boolean', JSON.stringify({ ...hello, reuse: 'yes' }), /^bad hello message: reuse/],
    ['moves a number', JSON.stringify({ type: 'moves', id: 'r', moves: 42, final: true }), /moves: expected a string or an array/],
    ['moves an object', JSON.stringify({ type: 'moves', id: 'r', moves: { a: 1 }, final: true }), /moves: expected/],
    ['moves a triple', JSON.stringify({ type: 'moves', id: 'r', moves: [[1, 2, 3]], final: true }), /moves: expected/],
    ['moves a non-integer pair', JSON.stringify({ type: 'moves', id: 'r', moves: [[1, 2.5]], final: true }), /moves: expected/],
    ['moves a string pair', JSON.stringify({ type: 'moves', id: 'r', moves: [['1', 2]], final: true }), /moves: expected/],
    ['moves flat numbers', JSON.stringify({ type: 'moves', id: 'r', moves: [1, 2], final: true }), /moves: expected/],
    ['moves without final', JSON.stringify({ type: 'moves', id: 'r', moves: 'U' }), /final/],
    ['moves final a string', JSON.stringify({ type: 'moves', id: 'r', moves: 'U', final: 'yes' }), /final/],
    ['moves without id', JSON.stringify({ type: 'moves', moves: 'U', final: true }), /id/],
    ['moves empty id', JSON.stringify({ type: 'moves', id: '', moves: 'U', final: true }), /id/],
    ['info with a negative time', JSON.stringify({ type: 'moves', id: 'r', moves: 'U', final: true, info: { computeMs: -1 } }), /info\.computeMs/],
    ['give-up reason a number', JSON.stringify({ type: 'give-up', id: 'r', reason: 5 }), /reason/],
  ];
  it.each(rejected)('rejects %s', (_name, text, reason) => {
    const r = parseBotMessage(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  it('never throws, whatever the input', () => {
    for (const text of ['\u0000', '{"__proto__":{"type":"hello"}}', '{"type":"constructor"}', '{"type":"toString"}', '9'.repeat(400)]) {
      expect(parseBotMessage(text).ok).toBe(false);
    }
  });

  it('validates a 100 000-pair chunk', () => {
    const moves = Array.from({ length: 100_000 }, (_, i) => [i, i + 1]);
    expect(parseBotMessage(JSON.stringify({ type: 'moves', id: 'r', moves, final: true })).ok).toBe(true);
  });
});

describe('parseRefereeMessage', () => {
  const solve = (puzzle: unknown) => JSON.stringify({ type: 'solve', id: 's1', puzzle, timeLimitMs: 1000, maxMoves: 100 });
  const accepted: Array<[string, string]> = [
    ['welcome', JSON.stringify({ type: 'welcome', protocol: 1, session: 'x', limits: { maxPayload: 4194304 } })],
    ['sliding solve', solve({ kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 0, 3] })],
    ['hanoi solve', solve({ kind: 'hanoi', pegs: 3, start: 'BCC', goal: 'CCC' })],
    ['swaps solve', solve({ kind: 'swaps', rows: 1, cols: 3, tiles: [2, 1, 3] })],
    ['warehouse solve', solve({ kind: 'warehouse', size: 4, cells: Array(16).fill(0) })],
    ['cancel', JSON.stringify({ type: 'cancel', id: 's1' })],
    ['result', JSON.stringify({ type: 'result', id: 's1', verdict: 'invalid', moves: 3, timeMs: 12.5, index: 3, reason: 'x' })],
    ['bye', JSON.stringify({ type: 'bye' })],
  ];
  it.each(accepted)('accepts %s', (_name, text) => {
    expect(parseRefereeMessage(text).ok).toBe(true);
  });

  const rejected: Array<[string, string]> = [
    ['a bot message', JSON.stringify(hello)],
    ['unknown puzzle kind', solve({ kind: 'rubik' })],
    ['sliding tiles not numbers', solve({ kind: 'sliding', rows: 2, cols: 2, tiles: ['1', 2, 0, 3] })],
    ['hanoi with 4 pegs', solve({ kind: 'hanoi', pegs: 4, start: 'A', goal: 'C' })],
    ['warehouse without cells', solve({ kind: 'warehouse', size: 4 })],
    ['unknown verdict', JSON.stringify({ type: 'result', id: 's1', verdict: 'won', moves: 1, timeMs: 1 })],
    ['not JSON', 'bye'],
  ];
  it.each(rejected)('rejects %s', (_name, text) => {
    expect(parseRefereeMessage(text).ok).toBe(false);
  });
});
