/**
 * An uploaded archive written to a temporary file as it arrives, never held whole in memory, and cut off
 * at the cap: from the moment a body is known to be over it (its declared Content-Length, or the bytes that
 * crossed it, chunked or lying about its length) nothing more is written and the rest is read and dropped.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Context, MiddlewareHandler } from 'hono';
// The type of the context's `participant` variable.
import type {} from './current-participant.ts';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import { ARCHIVE_MAX_BYTES } from '../app/submissions/pack-bot.ts';
import { readBounds, REFUSED_BODY_READ, type ReadBounds } from './refused-body.ts';

/** The largest archive a participant may upload: the intake's cap (10 MiB). */
export const UPLOAD_MAX_BYTES = ARCHIVE_MAX_BYTES;

/** A received upload: the file, and a function that removes it and its folder. */
export interface Upload {
  readonly file: string;
  readonly bytes: number;
  discard(): void;
}

class TooLarge extends Error {}

/** `10 MiB`-style text of a byte cap, for messages. */
export const capText = (bytes: number): string => (bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`);

/**
 * Streams `body` into a new temporary file of at most `max` bytes. `declared` is the request's
 * Content-Length, when it sent one. Refusals: `too-large` (HTTP 413), `empty`, `upload` (the client went away).
 * A body over the cap is read to its end and dropped before the refusal, within `refusedRead`
 * (refused-body.ts).
 */
export async function receiveUpload(
  body: WebReadableStream<Uint8Array> | ReadableStream<Uint8Array> | null,
  declared: string | undefined,
  max = UPLOAD_MAX_BYTES,
  refusedRead = REFUSED_BODY_READ,
): Promise<Result<Upload>> {
  const tooLarge = reject('too-large', `the archive is larger than ${capText(max)}`);
  const declaredBytes = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined;
  // Declared beyond what a refusal reads: answered at once, the connection cut after the answer.
  if (declaredBytes !== undefined && declaredBytes > max + refusedRead.bytes) return tooLarge;
  if (body === null) return reject('empty', 'the request has no body: send the archive as it is (curl --data-binary @bot.tar.gz)');
  const dir = mkdtempSync(join(tmpdir(), 'arena-upload-'));
  const file = join(dir, 'archive');
  const discard = () => rmSync(dir, { recursive: true, force: true });
  let bytes = 0;
  const source = Readable.fromWeb(body as WebReadableStream<Uint8Array>);
  // Set when the cap is crossed (or the declared length is over it): from then on nothing is written, and
  // the rest is read only within the refusal's bounds (refused-body.ts).
  let over: ReadBounds | undefined;
  const refuse = () => (over = readBounds(refusedRead, () => source.destroy(new TooLarge())));
  if (declaredBytes !== undefined && declaredBytes > max) refuse();
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (!over && bytes > max) refuse();
      if (!over) return done(null, chunk);
      if (!over.arrived(chunk.length)) return done(new TooLarge());
      done();
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (e) {
    discard();
    return e instanceof TooLarge ? tooLarge : reject('upload', `the upload did not arrive whole: ${(e as Error).message}`);
  } finally {
    over?.stop();
  }
  if (over) {
    discard();
    return tooLarge;
  }
  if (bytes === 0) {
    discard();
    return reject('empty', 'the archive is empty');
  }
  return ok({ file, bytes, discard });
}

/** Writes bytes already in memory (a form's file field, itself capped) to a temporary file as {@link receiveUpload} does. */
export async function uploadOfBlob(blob: Blob, max = UPLOAD_MAX_BYTES): Promise<Result<Upload>> {
  if (blob.size > max) return reject('too-large', `the archive is larger than ${capText(max)}`);
  return receiveUpload(blob.stream(), String(blob.size), max);
}

/** Uploads received at once, at most (each may hold up to the cap in a temporary file while it arrives). */
export const UPLOADS_AT_ONCE = 8;

/**
 * A route middleware letting at most `max` uploads in at once, across every route it guards; beyond that
 * the answer is `busy`'s, with Retry-After, before a byte of the body is read. Keeps many slow uploads from
 * filling the temporary folder or (for the form's parsed body) the memory.
 */
export function uploadGate(busy: (c: Context) => Response, max = UPLOADS_AT_ONCE, ownBusy: (c: Context) => Response = busy): MiddlewareHandler {
  let open = 0;
  // One upload at a time per participant: a participant trickling uploads holds one of the `max`, never all.
  const uploading = new Set<string>();
  return async (c, next) => {
    const who = c.get('participant')?.name;
    if (who !== undefined && uploading.has(who)) {
      c.header('Retry-After', '5');
      c.header('Connection', 'close');
      return ownBusy(c);
    }
    if (open >= max) {
      c.header('Retry-After', '5');
      c.header('Connection', 'close');
      return busy(c);
    }
    open++;
    if (who !== undefined) uploading.add(who);
    try {
      await next();
    } finally {
      open--;
      if (who !== undefined) uploading.delete(who);
    }
  };
}
