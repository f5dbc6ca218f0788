/**
 * Text kept under a byte cap as its first and last bytes with the count of bytes cut between them: a bot's
 * stderr of one match (issue 32) is shown to its owner, and both ends matter (what it said at start-up,
 * what it said before it died), while a bot that writes without end must not fill the database. The cap is
 * the same wherever the text is held: in the transport while the process runs, and in the store, which
 * joins the pieces of several processes (restarts, parallel players, a resumed match) under one cap.
 *
 * Sizes are UTF-8 bytes; a cut never splits a character, so a kept end may be up to 3 bytes short.
 */

/** Text under a cap: `head`, then `cutBytes` bytes that were not kept, then `tail` (empty unless cut). */
export interface CappedText {
  readonly head: string;
  readonly tail: string;
  readonly cutBytes: number;
}

/** How much of each end is kept, UTF-8 bytes. Text no longer than their sum is kept whole. */
export interface TextCap {
  readonly headBytes: number;
  readonly tailBytes: number;
}

/** The default cap of a bot's stderr per match: 64 KiB, the first 48 KiB and the last 16 KiB. */
export const STDERR_CAP: TextCap = { headBytes: 48 * 1024, tailBytes: 16 * 1024 };

/** Nothing kept. */
export const NO_TEXT: CappedText = { head: '', tail: '', cutBytes: 0 };

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const isContinuation = (b: number | undefined): boolean => b !== undefined && (b & 0xc0) === 0x80;

/** UTF-8 bytes of `s`. */
export function utf8Bytes(s: string): number {
  return encoder.encode(s).length;
}

/** The longest prefix of `bytes` of at most `n` bytes that ends between two characters. */
function firstBytes(bytes: Uint8Array, n: number): Uint8Array {
  if (bytes.length <= n) return bytes;
  let k = n;
  while (k > 0 && isContinuation(bytes[k])) k--;
  return bytes.subarray(0, k);
}

/** The longest suffix of `bytes` of at most `n` bytes that starts at a character. */
function lastBytes(bytes: Uint8Array, n: number): Uint8Array {
  if (bytes.length <= n) return bytes;
  let k = bytes.length - n;
  while (k < bytes.length && isContinuation(bytes[k])) k++;
  return bytes.subarray(k);
}

/** `text` under `cap`. */
export function capText(text: string, cap: TextCap = STDERR_CAP): CappedText {
  return joinCapped(NO_TEXT, { head: text, tail: '', cutBytes: 0 }, cap);
}

/**
 * `a` followed by `b`, under `cap`: the head is the first bytes of the whole that are known (up to the first
 * cut), the tail its last known bytes (back to the last cut), and everything between is counted as cut.
 */
export function joinCapped(a: CappedText, b: CappedText, cap: TextCap = STDERR_CAP): CappedText {
  const pieces: (string | number)[] = [a.head, a.cutBytes, a.tail, b.head, b.cutBytes, b.tail];
  const gaps = pieces.flatMap((p, i) => (typeof p === 'number' && p > 0 ? [i] : []));
  const known = (from: number, to: number): string => pieces.slice(from, to).filter((p) => typeof p === 'string').join('');
  const cutBetween = gaps.reduce((sum, i) => sum + (pieces[i] as number), 0);
  if (gaps.length === 0) {
    const all = encoder.encode(known(0, pieces.length));
    if (all.length <= cap.headBytes + cap.tailBytes) return { head: decoder.decode(all), tail: '', cutBytes: 0 };
    const head = firstBytes(all, cap.headBytes);
    const tail = lastBytes(all, cap.tailBytes);
    return { head: decoder.decode(head), tail: decoder.decode(tail), cutBytes: all.length - head.length - tail.length };
  }
  const prefix = encoder.encode(known(0, gaps[0]));
  const suffix = encoder.encode(known(gaps[gaps.length - 1]! + 1, pieces.length));
  const middle = gaps.length > 1 ? utf8Bytes(known(gaps[0]! + 1, gaps[gaps.length - 1]!)) : 0;
  const head = firstBytes(prefix, cap.headBytes);
  const tail = lastBytes(suffix, cap.tailBytes);
  const cutBytes = prefix.length - head.length + cutBetween + middle + suffix.length - tail.length;
  return { head: decoder.decode(head), tail: decoder.decode(tail), cutBytes };
}

/** Whether nothing is kept or cut. */
export function isEmptyText(t: CappedText): boolean {
  return t.head === '' && t.tail === '' && t.cutBytes === 0;
}

/** The text as shown: head, a line saying how many bytes were cut (when any), tail. */
export function showCapped(t: CappedText): string {
  if (t.cutBytes === 0) return t.head + t.tail;
  const sep = t.head === '' || t.head.endsWith('\n') ? '' : '\n';
  return `${t.head}${sep}[… ${t.cutBytes} bytes cut]\n${t.tail}`;
}

/**
 * Text arriving in chunks, kept under a cap as it arrives: memory stays within twice the cap, and each byte
 * costs a bounded amount of work however small the chunks (a bot writing a byte at a time must not make the
 * referee re-encode 64 KiB per write). take() hands over what arrived since the last take and starts
 * afresh, so one process's text can be split between the matches it served.
 */
export class CappedTextBuilder {
  /** Before the first cut: everything; after it: the text after the head, trimmed to the tail now and then. */
  private parts: string[] = [];
  private partBytes = 0;
  /** Set at the first cut: the head, which no later chunk changes. */
  private head: string | undefined;
  private cutBytes = 0;

  constructor(private readonly cap: TextCap = STDERR_CAP) {}

  /** Adds a chunk. */
  push(chunk: string): void {
    if (chunk === '') return;
    const bytes = encoder.encode(chunk);
    if (this.head !== undefined && bytes.length >= this.cap.tailBytes) {
      // A chunk as long as the tail: everything before it is cut, and it alone gives the tail.
      const tail = lastBytes(bytes, this.cap.tailBytes);
      this.cutBytes += this.partBytes + bytes.length - tail.length;
      this.parts = [decoder.decode(tail)];
      this.partBytes = tail.length;
      return;
    }
    this.parts.push(chunk);
    this.partBytes += bytes.length;
    if (this.head === undefined) {
      if (this.partBytes <= this.cap.headBytes + this.cap.tailBytes) return;
      const first = capText(this.parts.join(''), this.cap);
      this.head = first.head;
      this.cutBytes = first.cutBytes;
      this.parts = [first.tail];
      this.partBytes = utf8Bytes(first.tail);
    } else if (this.partBytes > 2 * this.cap.tailBytes) this.trim();
  }

  /** What arrived since the last take (undefined when nothing did), and empties the builder. */
  take(): CappedText | undefined {
    if (this.head === undefined && this.partBytes === 0) return undefined;
    let kept: CappedText;
    if (this.head === undefined) kept = { head: this.parts.join(''), tail: '', cutBytes: 0 };
    else {
      this.trim();
      kept = { head: this.head, tail: this.parts.join(''), cutBytes: this.cutBytes };
    }
    this.parts = [];
    this.partBytes = 0;
    this.head = undefined;
    this.cutBytes = 0;
    return kept;
  }

  /** Keeps only the last tailBytes of what follows the head, counting the rest as cut. */
  private trim(): void {
    const all = encoder.encode(this.parts.join(''));
    const tail = lastBytes(all, this.cap.tailBytes);
    this.cutBytes += all.length - tail.length;
    this.parts = [decoder.decode(tail)];
    this.partBytes = tail.length;
  }
}
