/**
 * Shape limits on one message, checked on the raw text before JSON.parse. Every later step (zod, error
 * texts, the replayers) may then walk the value recursively without risk: no message that passes can be
 * nested deeper than `maxDepth`, so nothing downstream can overflow the stack, and no object or array can
 * be wide enough to make a validator slow. The scan is a single loop with a fixed-size counter array, so
 * the check itself cannot overflow the stack whatever the input.
 */
import { MAX_PAYLOAD, MAX_REFEREE_PAYLOAD } from './messages.ts';

/** Limits on one message. */
export interface MessageBounds {
  /** UTF-8 bytes of the whole message. */
  readonly maxBytes: number;
  /** Nesting of objects and arrays; the message object itself is depth 1. */
  readonly maxDepth: number;
  /** Keys of any one object. */
  readonly maxKeys: number;
  /** Elements of any one array. */
  readonly maxElements: number;
  /** Raw (still escaped) length of any one object key. */
  readonly maxKeyLength: number;
  /** Raw length of any one string value (field-specific caps, e.g. `id` ≤ 200, are the schema's). */
  readonly maxString: number;
}

/**
 * What a bot may send. The deepest legal message is 3 levels (`{"moves":[[1,2]]}`); 8 leaves room for fields
 * a later protocol version may add. A moves chunk of 100,000 pairs is the recommended size; 2^20 elements is
 * more than 4 MiB of `[1,2],` can hold, so only a flat array of bare numbers can hit it.
 */
export const BOT_MESSAGE_BOUNDS: MessageBounds = {
  maxBytes: MAX_PAYLOAD,
  maxDepth: 8,
  maxKeys: 64,
  maxElements: 1 << 20,
  maxKeyLength: 64,
  maxString: MAX_PAYLOAD,
};

/** What the referee may send a bot (the SDK's side): a solve carries a whole 1000×1000 state. */
export const REFEREE_MESSAGE_BOUNDS: MessageBounds = {
  maxBytes: MAX_REFEREE_PAYLOAD,
  maxDepth: 8,
  maxKeys: 64,
  maxElements: 1 << 24,
  maxKeyLength: 64,
  maxString: MAX_REFEREE_PAYLOAD,
};

/** "4 MiB" for 4·2^20: the unit people read in PROTOCOL.md. */
export function formatBytes(n: number): string {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Index of the quote that closes the string opened at `open`, or -1 if it never closes. */
function stringEnd(text: string, open: number): number {
  for (let q = text.indexOf('"', open + 1); q !== -1; q = text.indexOf('"', q + 1)) {
    // The quote is escaped when an odd number of backslashes precede it.
    let k = q - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q;
  }
  return -1;
}

/**
 * Checks `text` against `b` and returns why it is out of bounds, or undefined when it is within them (or is
 * not JSON in a way JSON.parse will report better). Linear time; never throws; no recursion.
 */
export function checkBounds(text: string, b: MessageBounds): string | undefined {
  // A UTF-16 unit is 1 to 3 UTF-8 bytes (a surrogate pair is 4 for 2), so count bytes only when it matters.
  if (text.length > b.maxBytes || (text.length * 3 > b.maxBytes && Buffer.byteLength(text, 'utf8') > b.maxBytes)) {
    return `message larger than ${formatBytes(b.maxBytes)}`;
  }
  // commas[d] counts the separators seen in the container at depth d; isObject[d] says which kind it is.
  const commas = new Int32Array(b.maxDepth + 1);
  const isObject = new Uint8Array(b.maxDepth + 1);
  let depth = 0;
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // Ordered by frequency in a moves chunk: separators, then strings, then brackets; digits fall through.
    if (c === COMMA) {
      if (depth === 0) continue;
      const count = (commas[depth] = commas[depth]! + 1) + 1;
      if (isObject[depth]) {
        if (count > b.maxKeys) return `an object with more than ${b.maxKeys} keys`;
        expectKey = true;
      } else if (count > b.maxElements) {
        return `an array with more than ${b.maxElements} elements`;
      }
    } else if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end === -1) return undefined; // unterminated: JSON.parse says so
      const length = end - i - 1;
      if (expectKey) {
        if (length > b.maxKeyLength) return `an object key longer than ${b.maxKeyLength} characters`;
        expectKey = false;
      } else if (length > b.maxString) {
        return `a string longer than ${b.maxString} characters`;
      }
      i = end;
    } else if ((c | 0x20) === OPEN_OBJECT) {
      // '[' (0x5b) and '{' (0x7b) differ only in bit 0x20; so do ']' and '}'.
      if (++depth > b.maxDepth) return `nesting deeper than ${b.maxDepth} levels`;
      commas[depth] = 0;
      isObject[depth] = c === OPEN_OBJECT ? 1 : 0;
      expectKey = c === OPEN_OBJECT;
    } else if ((c | 0x20) === CLOSE_OBJECT) {
      if (depth === 0) return undefined; // unbalanced: JSON.parse says so
      depth--;
      expectKey = false;
    }
  }
  return undefined;
}
