/**
 * What is left of a refused request's body is read and dropped before the answer leaves. A server that
 * answers and closes with the client's bytes unread makes the kernel reset the connection, and a client still
 * sending then often loses the answer (it sees EPIPE or ECONNRESET instead of the 401, 413 or 429), on a slow
 * link every time. Reading stops at bounds that keep a hostile client from holding the server: a body
 * larger than a refusal reads, one that stops arriving, and more such reads at once than the server allows
 * are cut instead, as before (the connection then ends after the answer).
 */
import type { MiddlewareHandler } from 'hono';

/** Bounds of reading one refused body. */
export interface RefusedBodyRead {
  /** Bytes read past what was allowed (the cap of an upload; all of a body refused unread). */
  readonly bytes: number;
  /** Milliseconds from the refusal, in all. */
  readonly ms: number;
  /** Milliseconds with nothing arriving: a client that declared a body and sends none is not waited for. */
  readonly idleMs: number;
}

/** The bounds the server reads refused bodies within. */
export const REFUSED_BODY_READ: RefusedBodyRead = { bytes: 16 * 1024 * 1024, ms: 30_000, idleMs: 2_000 };

/** Refused bodies read at once by the middleware, at most; beyond, a refusal's connection is cut after it. */
export const REFUSED_READS_AT_ONCE = 32;

/** The bounds of one read: `arrived` counts a chunk (false once past the bytes); `cut` runs when time is up. */
export interface ReadBounds {
  arrived(bytes: number): boolean;
  stop(): void;
}

/** Starts the clocks of one refused body's read: `cut` runs after `ms` in all, or `idleMs` without a chunk. */
export function readBounds(limits: RefusedBodyRead, cut: () => void): ReadBounds {
  let bytes = 0;
  const total = setTimeout(cut, limits.ms);
  const idle = setTimeout(cut, limits.idleMs);
  return {
    arrived(n) {
      bytes += n;
      idle.refresh();
      return bytes <= limits.bytes;
    },
    stop() {
      clearTimeout(total);
      clearTimeout(idle);
    },
  };
}

/**
 * Reads what is left of a request's body and drops it, within `limits`: the client finishes its write and
 * reads the answer. A body another reader holds (locked) is left to it.
 */
export async function dropRefusedBody(body: ReadableStream<Uint8Array> | null, limits = REFUSED_BODY_READ): Promise<void> {
  if (body === null || body.locked) return;
  const reader = body.getReader();
  // A pending read ends (done) when the reader is cancelled.
  const bounds = readBounds(limits, () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (!bounds.arrived(value.length)) return void (await reader.cancel());
    }
  } catch {
    // The client went away: there is nothing left to drop.
  } finally {
    bounds.stop();
  }
}

/**
 * The web app's outermost middleware: once the answer is ready, what no route read of the request's body is
 * read and dropped before the answer goes out. Every refusal made before reading (a wrong token, a busy
 * upload gate, another site's form, a form over its size, a route that is not there) then reaches a client
 * still sending. A body declared larger than `limits.bytes`, and every body beyond `atOnce` reads, is not
 * read: its answer says `Connection: close` and goes at once.
 */
export function dropUnreadBodies(limits = REFUSED_BODY_READ, atOnce = REFUSED_READS_AT_ONCE): MiddlewareHandler {
  let reading = 0;
  return async (c, next) => {
    // A GET or HEAD has no body, and asking for it would build the whole Request for every page view.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    await next();
    if (c.req.raw.bodyUsed || c.req.raw.body === null || c.req.raw.body.locked) return;
    const declared = Number(c.req.header('content-length') ?? 0);
    if (!(declared <= limits.bytes) || reading >= atOnce) {
      c.header('Connection', 'close');
      return;
    }
    reading++;
    try {
      await dropRefusedBody(c.req.raw.body, limits);
    } finally {
      reading--;
    }
  };
}
