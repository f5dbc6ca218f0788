import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import type { HelloMessage } from '../../src/protocol/messages.ts';
import { sizeBoundText, sizeGap, understoodHello } from '../../src/protocol/capability-size.ts';
import { checkHello } from '../../src/transport/handshake.ts';

const sliding = (rows: number, cols: number): PuzzleState => ({ kind: 'sliding', rows, cols, tiles: Array.from({ length: rows * cols }, (_, i) => (i + 1) % (rows * cols)) });
const hello = (protocol: number, capabilities: HelloMessage['capabilities']): HelloMessage => ({ type: 'hello', protocol, name: 'b', version: '1', capabilities });

describe('capability size', () => {
  it('sizeGap - maxSize 3 (protocol 2) takes the 8-puzzle and declines 4x4 in the words of --size', () => {
    const [cap] = understoodHello(hello(2, [{ kind: 'sliding', maxSize: 3 }])).capabilities;
    expect(sizeGap(cap!, sliding(3, 3))).toBeUndefined();
    expect(sizeGap(cap!, sliding(2, 3))).toBeUndefined();
    expect(sizeGap(cap!, sliding(4, 4))).toBe('bot declared sliding up to size 3; this scramble has size 4 (sliding 4x4)');
    expect(sizeGap(cap!, sliding(3, 4))).toMatch(/has size 4 \(sliding 3x4\)/);
  });

  it('understoodHello - a protocol-1 bot\'s maxSize 9 still means 9 cells for sliding and swaps, and is kept for hanoi', () => {
    const caps = understoodHello(hello(1, [{ kind: 'sliding', maxSize: 9 }, { kind: 'swaps', maxSize: 12, prepare: true }, { kind: 'hanoi', maxSize: 10 }])).capabilities;
    expect(caps).toEqual([{ kind: 'sliding', maxCells: 9 }, { kind: 'swaps', maxCells: 12, prepare: true }, { kind: 'hanoi', maxSize: 10 }]);
    expect(sizeGap(caps[0]!, sliding(3, 3))).toBeUndefined();
    expect(sizeGap(caps[0]!, sliding(2, 5))).toMatch(/up to 9 cells \(protocol 1 counts cells\); this scramble has 10 \(sliding 2x5\)/);
    expect(sizeGap(caps[1]!, { kind: 'swaps', rows: 3, cols: 4, tiles: [] } as unknown as PuzzleState)).toBeUndefined();
    expect(sizeBoundText(caps[0]!)).toBe(' ≤ 9 cells');
    expect(sizeBoundText(caps[2]!)).toBe(' ≤ 10');
  });

  it('checkHello - understands protocols 1 and 2, refuses others, and reads a version-1 hello in cells', () => {
    const v1 = checkHello(JSON.stringify(hello(1, [{ kind: 'sliding', maxSize: 9 }])));
    expect(v1.ok && v1.value.capabilities).toEqual([{ kind: 'sliding', maxCells: 9 }]);
    const v2 = checkHello(JSON.stringify(hello(2, [{ kind: 'sliding', maxSize: 3 }])));
    expect(v2.ok && v2.value.capabilities).toEqual([{ kind: 'sliding', maxSize: 3 }]);
    const v3 = checkHello(JSON.stringify(hello(3, [])));
    expect(!v3.ok && v3.reason).toBe('unsupported protocol 3; this referee speaks 1 and 2');
  });

  it('checkHello - a bot cannot set maxCells itself (the schema drops it)', () => {
    const r = checkHello(JSON.stringify(hello(2, [{ kind: 'sliding', maxSize: 3, maxCells: 1 } as never])));
    expect(r.ok && r.value.capabilities).toEqual([{ kind: 'sliding', maxSize: 3 }]);
  });
});
