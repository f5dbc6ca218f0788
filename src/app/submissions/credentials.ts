/**
 * Where `arena login` keeps a participant's token for `arena submit`: `$XDG_CONFIG_HOME/arena/
 * credentials.json` (default ~/.config/arena/), `{"server","token"}`, readable by its owner only (0600 in a
 * 0700 folder). A stored token is only ever sent to the server it was stored for.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';

/** A stored login. */
export interface Credentials {
  readonly server: string;
  readonly token: string;
}

/** The credentials file of `env` (XDG_CONFIG_HOME, else HOME/.config). */
export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.startsWith('/') ? env.XDG_CONFIG_HOME : join(env.HOME || homedir(), '.config');
  return join(base, 'arena', 'credentials.json');
}

/**
 * A server URL as one spelling (scheme, host, port, path without a trailing slash), so the URL given to
 * `arena login` and the one given to `arena submit` compare equal however they were typed; only http and
 * https, no user, query or fragment.
 */
export function serverUrl(text: string): Result<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return reject('usage', `--server must be a URL such as https://arena.example.org, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject('usage', `--server must be an http:// or https:// URL, got "${text}"`);
  if (url.username || url.password || url.search || url.hash) return reject('usage', `--server takes no user, password, query or fragment, got "${text}"`);
  return ok(`${url.origin}${url.pathname.replace(/\/+$/, '')}`);
}

/** The stored login, undefined when there is none; a refusal when the file is unreadable or malformed. */
export function readCredentials(path: string): Result<Credentials | undefined> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return ok(undefined);
    return reject('credentials', `cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    const v = JSON.parse(text) as Partial<Credentials>;
    if (typeof v.server === 'string' && typeof v.token === 'string') return ok({ server: v.server, token: v.token });
  } catch {
    // Falls through to the one message below.
  }
  return reject('credentials', `${path} is not {"server","token"}: run arena login again`);
}

/** Stores a login, replacing any other: written to a new 0600 file, then renamed over the old one. */
export function writeCredentials(path: string, c: Credentials): Result<string> {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ server: c.server, token: c.token }, null, 2) + '\n', { mode: 0o600, flag: 'w' });
    // writeFileSync's mode applies only to a new file; a leftover temp file keeps its own.
    chmodSync(temp, 0o600);
    renameSync(temp, path);
    return ok(path);
  } catch (e) {
    return reject('credentials', `cannot write ${path}: ${(e as Error).message}`);
  }
}

/** Where `arena submit` sends and with what token: flags first, then ARENA_TOKEN, then the stored login (for its own server only). */
export function resolveTarget(o: { server?: string; token?: string; env?: NodeJS.ProcessEnv }): Result<{ server: string; token: string }> {
  const env = o.env ?? process.env;
  const stored = readCredentials(credentialsPath(env));
  if (!stored.ok) return reject('usage', stored.reason);
  const given = o.server ?? stored.value?.server;
  if (given === undefined) return reject('usage', 'which arena? pass --server URL (or run arena login --server URL once)');
  const server = serverUrl(given);
  if (!server.ok) return server;
  const token = o.token || env.ARENA_TOKEN || (stored.value !== undefined && stored.value.server === server.value ? stored.value.token : undefined);
  if (!token) return reject('usage', `no token for ${server.value}: pass --token, set ARENA_TOKEN, or run arena login --server ${server.value}`);
  return ok({ server: server.value, token });
}
