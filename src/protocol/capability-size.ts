/**
 * One meaning of "size" for a bot's capabilities: what `arena match` counts (a side for sliding and swaps,
 * discs for hanoi, n for warehouse). Protocol 1 counted cells for sliding and swaps, so a bot that declared
 * `maxSize: 3` meaning a 3×3 board was told it declines "sliding 3x3 … size 9". Version 2 counts the side;
 * a version-1 hello is still understood: its cell counts are kept as `maxCells` and checked as cells.
 */
import type { PuzzleState } from '../core/types.ts';
import { getPuzzle, puzzleOf } from '../puzzles/index.ts';
import type { Capability, HelloMessage } from './messages.ts';

/** A hello with its capabilities in the referee's terms (a protocol-1 cell count moved to `maxCells`). */
export function understoodHello(hello: HelloMessage): HelloMessage {
  if (hello.protocol !== 1) return hello;
  const capabilities = hello.capabilities.map((c): Capability => {
    const p = getPuzzle(c.kind);
    if (c.maxSize === undefined || !p.ok || !p.value.cellMeasure) return c;
    const { maxSize, ...rest } = c;
    return { ...rest, maxCells: maxSize };
  });
  return { ...hello, capabilities };
}

/** Why `cap` excludes `state` by size, in the words of the size flags, or undefined when it includes it. */
export function sizeGap(cap: Capability, state: PuzzleState): string | undefined {
  const p = puzzleOf(state);
  const size = p.sizeMeasure(state);
  if (cap.maxSize !== undefined && size > cap.maxSize) {
    return `bot declared ${state.kind} up to size ${cap.maxSize}; this scramble has size ${size} (${p.className(state)})`;
  }
  const cells = p.cellMeasure?.(state);
  if (cap.maxCells !== undefined && cells !== undefined && cells > cap.maxCells) {
    return `bot declared ${state.kind} up to ${cap.maxCells} cells (protocol 1 counts cells); this scramble has ${cells} (${p.className(state)})`;
  }
  return undefined;
}

/** How a capability's size bound reads in a line (bot check): "≤ 3", "≤ 9 cells", or nothing. */
export function sizeBoundText(cap: Capability): string {
  if (cap.maxSize !== undefined) return ` ≤ ${cap.maxSize}`;
  return cap.maxCells !== undefined ? ` ≤ ${cap.maxCells} cells` : '';
}
