/**
 * receiveUpload's refusals of a body over the cap: the rest is read and dropped before the refusal (so the
 * client is not reset under its write), nothing of it is kept, and beyond the bound the reading stops.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REFUSED_BODY_READ } from '../../src/web/refused-body.ts';
import { receiveUpload } from '../../src/web/upload-body.ts';

/** A stream of `chunks` chunks of `size` bytes; `pulled()` says how many were read. */
function chunked(chunks: number, size: number) {
  let pulled = 0;
  let cancelled = false;
  const chunk = new Uint8Array(size).fill(7);
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      if (pulled === chunks) return c.close();
      pulled++;
      c.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
    // Nothing is pulled before a read asks for it.
  }, { highWaterMark: 0 });
  return { stream, pulled: () => pulled, cancelled: () => cancelled };
}

describe('upload body - a body over the cap', () => {
  it('upload body - under the cap is kept whole in a file', async () => {
    const b = chunked(4, 1000);
    const r = await receiveUpload(b.stream, undefined, 4000);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.bytes).toBe(4000);
    expect(existsSync(r.value.file)).toBe(true);
    r.value.discard();
    expect(existsSync(r.value.file)).toBe(false);
  });

  it('upload body - chunked past the cap is read to its end, then refused as too-large', async () => {
    const b = chunked(50, 1000);
    const r = await receiveUpload(b.stream, undefined, 4000);
    expect(r).toMatchObject({ ok: false, code: 'too-large', reason: 'the archive is larger than 4000 bytes' });
    expect(b.pulled()).toBe(50);
    expect(b.cancelled()).toBe(false);
  });

  it('upload body - a declared length over the cap is read to its end, then refused as too-large', async () => {
    const b = chunked(9, 1000);
    const r = await receiveUpload(b.stream, '9000', 4000);
    expect(r).toMatchObject({ ok: false, code: 'too-large' });
    expect(b.pulled()).toBe(9);
  });

  it('upload body - a declared length beyond what a refusal reads is refused before a byte is read', async () => {
    const b = chunked(9, 1000);
    const r = await receiveUpload(b.stream, String(4000 + REFUSED_BODY_READ.bytes + 1), 4000);
    expect(r).toMatchObject({ ok: false, code: 'too-large' });
    expect(b.pulled()).toBe(0);
  });

  it('upload body - a body running on past the refusal bound is cut there, not read to its end', async () => {
    const size = 1024 * 1024;
    const chunks = Math.ceil(REFUSED_BODY_READ.bytes / size) + 40;
    const b = chunked(chunks, size);
    const r = await receiveUpload(b.stream, undefined, size);
    expect(r).toMatchObject({ ok: false, code: 'too-large' });
    expect(b.pulled()).toBeLessThan(chunks);
    expect(b.pulled()).toBeGreaterThan(REFUSED_BODY_READ.bytes / size);
    expect(b.cancelled()).toBe(true);
  });
});

describe('upload body - a refused body that stops arriving', () => {
  /** A body that sends `first` bytes and then nothing, never ending; `cancelled()` says whether the reader let go. */
  function silent(first: number) {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        if (first > 0) c.enqueue(new Uint8Array(first).fill(7));
      },
      cancel() {
        cancelled = true;
      },
    });
    return { stream, cancelled: () => cancelled };
  }

  it('upload body - past the cap and then silent: refused once nothing has arrived for the idle time', async () => {
    const b = silent(5000);
    const r = await receiveUpload(b.stream, undefined, 4000, { bytes: 1 << 20, ms: 10_000, idleMs: 50 });
    expect(r).toMatchObject({ ok: false, code: 'too-large' });
    expect(b.cancelled()).toBe(true);
  });

  it('upload body - a declared length over the cap with a silent body: refused once the idle time is up', async () => {
    const b = silent(0);
    const r = await receiveUpload(b.stream, '5000', 4000, { bytes: 1 << 20, ms: 10_000, idleMs: 50 });
    expect(r).toMatchObject({ ok: false, code: 'too-large' });
    expect(b.cancelled()).toBe(true);
  });
});
