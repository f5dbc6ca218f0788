import { describe, expect, it } from 'vitest';
import { nearestName } from '../../src/app/bots/bot-names.ts';
import { collapseRepeats } from '../../src/app/launch/check-lines.ts';

describe('bot check lines', () => {
  it('collapseRepeats - one failure repeated on every request (times aside, and as the cancel check words it) is one line saying where else', () => {
    const bad = 'protocol: not JSON: Unexpected token \'D\', "DEBUG got solve" is not valid JSON';
    const lines = collapseRepeats([
      { ok: true, what: 'handshake', detail: 'x 1; declares sliding' },
      { ok: false, what: 'sliding 2x2 scramble', detail: bad },
      { ok: false, what: 'sliding 3x3 scramble', detail: bad },
      { ok: true, what: 'hanoi 3 scramble', detail: 'declined: no' },
      { ok: false, what: 'cancel', detail: `after a cancel the next request got ${bad}` },
    ]);
    expect(lines.filter((l) => !l.ok)).toEqual([{ ok: false, what: 'sliding 2x2 scramble', detail: `${bad} (the same on 2 more: sliding 3x3 scramble, cancel)` }]);
    expect(lines).toHaveLength(3);
  });

  it('collapseRepeats - different failures stay apart, and times in a reason do not tell two alike failures apart', () => {
    const lines = collapseRepeats([
      { ok: false, what: 'a', detail: 'timeout: no answer within 1000 ms' },
      { ok: false, what: 'b', detail: 'timeout: no answer within 2000 ms' },
      { ok: false, what: 'c', detail: 'illegal at move 3: U off the board' },
    ]);
    expect(lines.map((l) => l.what)).toEqual(['a', 'c']);
    expect(lines[0]!.detail).toMatch(/\(the same on 1 more: b\)$/);
  });

  it('nearestName - a look-alike, then the nearest by edits within a third of the name, else none', () => {
    const known = ['dijkstra', 'ida-star', 'constructive', 'hanoi-recursive'];
    expect(nearestName('Dijkstra', known)).toBe('dijkstra');
    expect(nearestName('dijkstr', known)).toBe('dijkstra');
    expect(nearestName('ida-stra', known)).toBe('ida-star');
    expect(nearestName('constructiv', known)).toBe('constructive');
    expect(nearestName('zebra', known)).toBeUndefined();
    expect(nearestName('x', [])).toBeUndefined();
  });
});
