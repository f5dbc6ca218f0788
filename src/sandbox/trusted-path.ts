/**
 * Whether a host path may decide how a bot starts (be exec'd, or be shown read-only in its sandbox): only a
 * path no bot can write. Its real path must not be /, a kernel folder (/proc, /sys, /dev), a home folder,
 * or hold or lie inside the bot's own folder, its snapshot, a guarded path (the checkout, the database and
 * its folder, the snapshot store) or another bot's folder; it and every folder above it must belong to
 * root or to the referee's own user and be writable by no group or other user (a root-owned sticky folder
 * such as /tmp excepted above it: nobody else can rename what root owns there).
 */
import { realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';

/** Folders whose contents say nothing a bot should see or be decided by. */
const KERNEL = ['/proc', '/sys', '/dev'];
/** /root, /home and the folders directly in /home. */
const HOME_FOLDER = /^\/root\/?$|^\/home(\/[^/]+)?\/?$/;
const STICKY = 0o1000;

/** Whether `path` is `folder` or lies inside it. */
export const isWithin = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);

/** The real path of `path`, or undefined when it does not resolve. */
export function realOf(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/**
 * Ok when `path` is trusted (see the module comment); `avoid`: folders it may neither hold nor be inside.
 * The reason names the path and what is wrong with it.
 */
export function checkTrusted(path: string, avoid: readonly string[], home = process.env.HOME): Result<string> {
  const real = realOf(path);
  if (real === undefined) return reject('runtime', `${path} no longer exists`);
  const named = real === path ? path : `${path} (really ${real})`;
  if (real === '/' || KERNEL.some((k) => isWithin(real, k))) return reject('runtime', `${named} is / or a kernel folder, which is never shown to a bot`);
  if (HOME_FOLDER.test(real) || (home !== undefined && home !== '/' && real === home)) return reject('runtime', `${named} is a home folder, which is never shown to a bot`);
  for (const a of avoid) {
    const ra = realOf(a) ?? a;
    if (isWithin(real, ra) || isWithin(ra, real)) return reject('runtime', `${named} ${isWithin(real, ra) ? 'lies inside' : 'holds'} ${a}, which a bot may write or must not see`);
  }
  const me = process.getuid?.() ?? 0;
  for (let p = real, first = true; ; p = dirname(p), first = false) {
    let st;
    try {
      st = statSync(p);
    } catch {
      return reject('runtime', `${p} cannot be read`);
    }
    if (st.uid !== 0 && st.uid !== me) return reject('runtime', `${first ? named : `${p}, above ${path},`} belongs to uid ${st.uid}, not to root or the referee's user`);
    const shared = (st.mode & 0o022) !== 0 && !(!first && st.isDirectory() && (st.mode & STICKY) !== 0 && st.uid === 0);
    if (shared) return reject('runtime', `${first ? named : `${p}, above ${path},`} is writable by other users (mode ${(st.mode & 0o7777).toString(8)})`);
    if (p === '/') break;
  }
  return ok(real);
}
