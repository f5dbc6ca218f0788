import { isIP } from 'node:net';
import type { Result } from '../core/types.ts';
import { reject } from '../core/types.ts';

/** Where the referee's WebSocket server listens. */
export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

/** Parses "host:port" (host optional: ":9000" is 127.0.0.1; IPv6 in brackets: "[::1]:9000"). */
export function parseListen(text: string): Result<ListenAddress> {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(text.trim());
  if (!m) return reject('bad-listen', `--listen must be host:port, got "${text}"`);
  const port = Number(m[3]);
  if (port > 65535) return reject('bad-listen', `--listen port ${port} is out of range (0 to 65535)`);
  const host = m[1] ?? (m[2] || '127.0.0.1');
  return { ok: true, value: { host, port } };
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host.toLowerCase().startsWith('::ffff:127.');
}

/**
 * The warning owed to whoever starts a referee that other machines can reach: who can connect, and how
 * they are let in. Undefined on a loopback address.
 */
export function listenNotice(listen: ListenAddress | undefined, url: string, remoteBots: readonly string[]): string | undefined {
  if (!listen || isLoopback(listen.host)) return undefined;
  const admitted = remoteBots.length
    ? `only the remote bots of this match (${remoteBots.join(', ')}) get in, each with its own registered token sent as "Authorization: Bearer <token>"`
    : 'no remote bot plays in this match, so only the bots the referee spawns itself get in (each with a one-time token)';
  return `warning: listening on ${url} (${listen.host}), reachable from other machines: anyone who can reach this port can connect; ${admitted}; everyone else is refused (401)`;
}
