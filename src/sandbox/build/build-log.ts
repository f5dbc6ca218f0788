/**
 * A build's log (its stdout and stderr, interleaved as they arrived) kept within a cap: the first half and
 * the last half of the cap, with one line saying how much was cut between them. The start holds the first
 * error a compiler reports, the end how the build ended; a build that prints without end costs the server
 * the cap, never more.
 */

/** Bytes of log kept by default: 64 KiB. */
export const LOG_BYTES = 64 * 1024;

/** A log being written. */
export class BuildLog {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly cap = LOG_BYTES) {}

  /** Adds the next piece of output. */
  add(chunk: Buffer | string): void {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.total += buf.length;
    const headRoom = Math.ceil(this.cap / 2) - this.headBytes;
    if (headRoom > 0) {
      const part = buf.subarray(0, headRoom);
      this.head.push(part);
      this.headBytes += part.length;
      buf = buf.subarray(part.length);
    }
    if (buf.length === 0) return;
    this.tail.push(buf);
    this.tailBytes += buf.length;
    const keep = Math.floor(this.cap / 2);
    // Drop whole chunks from the front while the rest still covers what is kept, then trim the first.
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.length >= keep) this.tailBytes -= this.tail.shift()!.length;
    if (this.tailBytes > keep * 2) {
      const joined = Buffer.concat(this.tail).subarray(this.tailBytes - keep);
      this.tail = [joined];
      this.tailBytes = joined.length;
    }
  }

  /** Bytes the build wrote in all. */
  get bytes(): number {
    return this.total;
  }

  /** The kept text: all of it within the cap, else its start, `[… N bytes cut]`, and its end. */
  text(): string {
    const head = Buffer.concat(this.head);
    if (this.total <= this.cap) return Buffer.concat([head, ...this.tail]).toString('utf8');
    const keep = Math.floor(this.cap / 2);
    const tail = Buffer.concat(this.tail);
    const end = tail.subarray(Math.max(0, tail.length - keep));
    const cut = this.total - head.length - end.length;
    return `${head.toString('utf8')}\n[… ${cut} bytes cut]\n${end.toString('utf8')}`;
  }
}
