/**
 * Result columns that grow as results are appended (src/app/records/rated-results.ts), kept in scramble order so
 * each scramble's results stay adjacent, as {@link SummaryColumns} promises its readers. A new result
 * usually belongs to a new scramble (appended at the end, in place, in spare capacity); one that joins a
 * scramble already held is merged in behind that scramble's earlier results. Views handed out earlier are
 * never changed: appending writes only past their length, and a merge that moves held rows writes into
 * fresh arrays (copy on write), because a page may still be reading the older view.
 */
import { allocateColumns, groupByScramble, type SummaryColumns } from '../../core/summary-columns.ts';

type Key = 'scrambleId' | 'matchId' | 'bot' | 'puzzleClass' | 'verdict' | 'moveCount' | 'wallMs' | 'optimal' | 'lowerBound';
const KEYS: readonly Key[] = ['scrambleId', 'matchId', 'bot', 'puzzleClass', 'verdict', 'moveCount', 'wallMs', 'optimal', 'lowerBound'];

type Buffers = { [K in Key]: SummaryColumns[K] };

/** Growing columns in scramble order; bots and classes numbered in the order they were first seen. */
export class LiveColumns {
  private buf: Buffers;
  private len: number;
  private readonly bots: string[];
  private readonly classes: string[];
  private readonly botAt: Map<string, number>;
  private readonly classAt: Map<string, number>;

  /** Starts from a full read (its arrays are kept, not copied: nothing else writes them). */
  constructor(first: SummaryColumns) {
    const c = groupByScramble(first);
    this.buf = Object.fromEntries(KEYS.map((k) => [k, c[k]])) as Buffers;
    this.len = c.length;
    this.bots = [...c.bots];
    this.classes = [...c.classes];
    this.botAt = new Map(this.bots.map((b, i) => [b, i]));
    this.classAt = new Map(this.classes.map((b, i) => [b, i]));
  }

  get length(): number {
    return this.len;
  }

  /** The rows held now; later appends do not change it. */
  view(): SummaryColumns {
    const out = { length: this.len, bots: [...this.bots], classes: [...this.classes] } as Record<string, unknown>;
    for (const k of KEYS) out[k] = this.buf[k].subarray(0, this.len);
    return out as unknown as SummaryColumns;
  }

  /**
   * Adds `more` (results not held yet) and returns where each landed, in increasing order; a scramble's
   * earlier results stay before its new ones, so the rows of a new result's scramble that precede it are
   * exactly its partners already counted.
   */
  add(more: SummaryColumns): Int32Array {
    const add = groupByScramble(more);
    const n = add.length;
    if (n === 0) return new Int32Array(0);
    const bot = Int32Array.from(add.bot, (b) => this.indexOf(this.botAt, this.bots, add.bots[b]));
    const cls = Int32Array.from(add.puzzleClass, (k) => this.indexOf(this.classAt, this.classes, add.classes[k]));
    const incoming: Buffers = { ...pick(add), bot, puzzleClass: cls };
    // Held rows of scrambles after the first new one move behind the new rows; usually there are none.
    const from = this.upperBound(add.scrambleId[0]);
    const total = this.len + n;
    const inPlace = from === this.len && total <= this.buf.scrambleId.length;
    const target = inPlace ? this.buf : grow(this.buf, from, Math.max(total, Math.ceil(this.len * 1.5), 1024));
    const placed = new Int32Array(n);
    // Merge the held tail [from, len) with the new rows into target from `from` on, held rows first on ties.
    const tail = from === this.len ? undefined : slice(this.buf, from, this.len);
    let i = 0;
    let j = 0;
    let w = from;
    const tailLen = this.len - from;
    while (i < tailLen || j < n) {
      if (j >= n || (i < tailLen && tail!.scrambleId[i] <= incoming.scrambleId[j])) copyRow(tail!, i++, target, w++);
      else {
        placed[j] = w;
        copyRow(incoming, j++, target, w++);
      }
    }
    this.buf = target;
    this.len = total;
    return placed;
  }

  private indexOf(at: Map<string, number>, list: string[], name: string): number {
    let i = at.get(name);
    if (i === undefined) {
      i = list.length;
      list.push(name);
      at.set(name, i);
    }
    return i;
  }

  /** The first held row whose scramble id is above `sid`. */
  private upperBound(sid: number): number {
    const s = this.buf.scrambleId;
    let lo = 0;
    let hi = this.len;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid] <= sid) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function pick(c: SummaryColumns): Buffers {
  return Object.fromEntries(KEYS.map((k) => [k, c[k]])) as Buffers;
}

/** Fresh arrays of `capacity` rows holding rows [0, keep) of `b`. */
function grow(b: Buffers, keep: number, capacity: number): Buffers {
  const fresh = pick(allocateColumns(capacity, [], []));
  for (const k of KEYS) (fresh[k] as Int32Array).set((b[k] as Int32Array).subarray(0, keep));
  return fresh;
}

/** Copies of rows [from, to) of `b` (the target may be `b` itself). */
function slice(b: Buffers, from: number, to: number): Buffers {
  return Object.fromEntries(KEYS.map((k) => [k, b[k].slice(from, to)])) as Buffers;
}

function copyRow(from: Buffers, i: number, to: Buffers, j: number): void {
  for (const k of KEYS) to[k][j] = from[k][i];
}
