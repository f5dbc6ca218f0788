/**
 * What the server knows of where a request came from and over what. Headers a reverse proxy adds
 * (X-Forwarded-For, -Proto, -Host) are believed only when `arena serve --trust-proxy` says a proxy sets
 * them: otherwise any client could claim an address (dodging the sign-in limit) or HTTPS.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** The first value of a comma-separated forwarded header, trimmed. */
const first = (v: string | undefined): string | undefined => v?.split(',')[0]?.trim() || undefined;

/** Whether the client reached us over TLS: our own, or (trusted) the proxy's. */
export function overTls(c: Context, trustProxy: boolean): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return trustProxy && first(c.req.header('x-forwarded-proto'))?.toLowerCase() === 'https';
}

/** The origin the browser sees (scheme://host[:port]), which a same-site form's Origin header names. */
export function publicOrigin(c: Context, trustProxy: boolean): string {
  const url = new URL(c.req.url);
  const host = (trustProxy ? first(c.req.header('x-forwarded-host')) : undefined) ?? url.host;
  return `${overTls(c, trustProxy) ? 'https' : 'http'}://${host}`;
}

/**
 * The client's address: the socket's peer, or behind a trusted proxy the address the proxy appended last to
 * X-Forwarded-For (the earlier entries are whatever the client sent).
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const hops = c.req.header('x-forwarded-for')?.split(',').map((s) => s.trim()).filter(Boolean);
    if (hops && hops.length > 0) return hops[hops.length - 1]!;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // Not served by @hono/node-server (a test calling app.request): no socket to ask.
    return 'unknown';
  }
}
