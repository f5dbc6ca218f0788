/**
 * An uploaded archive written to a temporary file as it arrives, never held whole in memory, and cut off
 * at the cap: a declared Content-Length beyond it is refused before a byte is read, and a body that grows
 * beyond it (chunked, or lying about its length) is refused as soon as the cap is crossed.
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
 */
export async function receiveUpload(body: WebReadableStream<Uint8Array> | ReadableStream<Uint8Array> | null, declared: string | undefined, max = UPLOAD_MAX_BYTES): Promise<Result<Upload>> {
  const tooLarge = reject('too-large', `the archive is larger than ${capText(max)}`);
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > max) return tooLarge;
  if (body === null) return reject('empty', 'the request has no body: send the archive as it is (curl --data-binary @bot.tar.gz)');
  const dir = mkdtempSync(join(tmpdir(), 'arena-upload-'));
  const file = join(dir, 'archive');
  const discard = () => rmSync(dir, { recursive: true, force: true });
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > max) return done(new TooLarge());
      done(null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(body as WebReadableStream<Uint8Array>), meter, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  } catch (e) {
    discard();
    return e instanceof TooLarge ? tooLarge : reject('upload', `the upload did not arrive whole: ${(e as Error).message}`);
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
