/**
 * The client side of the submissions API (src/web/submission-api.ts) for `arena submit` and `arena login`:
 * upload an archive, read a submission and its build log, ask whose a token is, and follow a submission
 * until it is placed or failed. Every answer is a Result; an HTTP refusal keeps the server's reason and a
 * code named after its status (401 `unauthorized`, 403 `forbidden`, 404 `not-found`, 413 `too-large`,
 * 429 `limit`, else `refused`), a server that cannot be reached is `unreachable`.
 */
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import type { SubmissionStatus, SubmissionView } from './submissions.ts';

/** A server and the token that speaks for a participant there. */
export interface ApiTarget {
  /** The server's URL, as `serverUrl` (credentials.ts) spells it. */
  readonly server: string;
  readonly token: string;
}

/** What POST /api/submissions answers. */
export interface Received {
  readonly submission: number;
  readonly bot: string;
  readonly status: SubmissionStatus;
}

const CODES: Record<number, string> = { 401: 'unauthorized', 403: 'forbidden', 404: 'not-found', 413: 'too-large', 429: 'limit' };

/** One request to the API: the parsed JSON (or text) of a 2xx answer, else a refusal with the server's reason. */
async function call<T>(t: ApiTarget, path: string, init: RequestInit & { duplex?: 'half' } = {}, as: 'json' | 'text' = 'json'): Promise<Result<T>> {
  let res: Response;
  try {
    res = await fetch(`${t.server}${path}`, { ...init, redirect: 'manual', headers: { ...init.headers, Authorization: `Bearer ${t.token}` } });
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return reject('unreachable', `cannot reach ${t.server}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    let reason = `HTTP ${res.status}`;
    try {
      const error = (JSON.parse(text) as { error?: unknown }).error;
      if (typeof error === 'string') reason = error;
    } catch {
      // Not the API's JSON (a proxy's page, a wrong URL): the status says enough.
      if (res.status === 404) reason = `${t.server}${path} is not an arena API (HTTP 404): is --server right?`;
    }
    return reject(CODES[res.status] ?? 'refused', reason);
  }
  if (as === 'text') return ok(text as T);
  try {
    return ok(JSON.parse(text) as T);
  } catch {
    return reject('refused', `${t.server}${path} did not answer JSON: is --server an arena?`);
  }
}

/** Withdraws the submitted bot `bot` (`alice/astar`) from the arena (DELETE /api/bots/…): its owner or an admin. */
export function withdrawRemote(t: ApiTarget, bot: string): Promise<Result<{ withdrawn: string }>> {
  return call(t, `/api/bots/${encodeURIComponent(bot)}`, { method: 'DELETE' });
}

/** Who the token belongs to (GET /api/whoami). */
export function whoAmI(t: ApiTarget): Promise<Result<{ user: string; admin: boolean }>> {
  return call(t, '/api/whoami');
}

/** Uploads the archive file (streamed, with its length) as a new submission. */
export function uploadArchive(t: ApiTarget, archive: string): Promise<Result<Received>> {
  const size = statSync(archive).size;
  const body = Readable.toWeb(createReadStream(archive)) as ReadableStream<Uint8Array>;
  return call(t, '/api/submissions', {
    method: 'POST',
    body,
    duplex: 'half',
    headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(size) },
  });
}

/** One submission (GET /api/submissions/:id). */
export function fetchSubmission(t: ApiTarget, id: number): Promise<Result<SubmissionView>> {
  return call(t, `/api/submissions/${id}`);
}

/** A submission's build log (GET /api/submissions/:id/log). */
export function fetchBuildLog(t: ApiTarget, id: number): Promise<Result<string>> {
  return call(t, `/api/submissions/${id}/log`, {}, 'text');
}

/** How {@link followSubmission} waits and reports. */
export interface FollowOptions {
  /** Each status as it is first seen (and the first answer). */
  onStatus?(s: SubmissionView): void;
  /** Every answer, changed or not (a live display redraws its clock). */
  onLook?(s: SubmissionView): void;
  /** Between two looks (default 1 s). */
  readonly pollMs?: number;
  /** Looks in a row that may fail (the server restarting, a network hiccup) before it gives up (default 10). */
  readonly failures?: number;
  readonly signal?: AbortSignal;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Looks at submission `id` until it is placed or failed; its last view, or why it could not be followed. */
export async function followSubmission(t: ApiTarget, id: number, o: FollowOptions = {}): Promise<Result<SubmissionView>> {
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const allowed = o.failures ?? 10;
  let failed = 0;
  let last: SubmissionStatus | undefined;
  for (;;) {
    if (o.signal?.aborted) return reject('interrupted', `stopped following submission ${id}; it goes on on the server`);
    const r = await fetchSubmission(t, id);
    if (!r.ok) {
      // A refusal (the token revoked, the submission gone) will not mend itself; a lost connection may.
      if (r.code !== 'unreachable' || ++failed > allowed) return r;
    } else {
      failed = 0;
      o.onLook?.(r.value);
      if (r.value.status !== last) {
        last = r.value.status;
        o.onStatus?.(r.value);
      }
      if (r.value.status === 'placed' || r.value.status === 'failed') return r;
    }
    await sleep(o.pollMs ?? 1000);
  }
}
