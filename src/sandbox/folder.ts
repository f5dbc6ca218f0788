/**
 * A bot's own folder, the one place it may write, and the uid it runs as.
 *
 * The folder is shown writable, so it must not be, or hold, anything the bot must not touch: not /, not
 * a home folder or /home, not a folder holding the results database, the project checkout or another
 * protected path. A registered bot without --cwd has the referee's current folder as its folder, as it had
 * before the sandbox; that is refused when it is such a folder, with the way out in the reason.
 *
 * As root, the bot runs as the owner of its folder (a folder someone set up for it: what it writes there
 * stays theirs), or, when root owns the folder, as nobody (65534), which can then write only where the
 * folder's permissions let it. Never as root: a uid-0 process reads every root-only file it can see.
 */
import { statSync } from 'node:fs';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';

/** The unprivileged uid and gid used when root owns a bot's folder. */
export const NOBODY = 65534;

const isWithin = (path: string, folder: string): boolean => path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
const HOME_FOLDERS = /^\/(root|home)\/?$|^\/home\/[^/]+\/?$/;

/** Why `folder` cannot be a bot's writable folder, or ok. `guarded`: paths no bot folder may hold. */
export function checkFolder(folder: string, guarded: readonly string[], home = process.env.HOME): Result<string> {
  let isDir = false;
  try {
    isDir = statSync(folder).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) return reject('bad-folder', `its folder ${folder} does not exist`);
  if (folder === '/' || HOME_FOLDERS.test(folder) || (home !== undefined && home !== '/' && folder === home)) {
    return reject('bad-folder', `its folder would be ${folder}, which is / or a home folder; register it with --cwd <a folder of its own>`);
  }
  const held = guarded.find((g) => isWithin(g, folder));
  if (held !== undefined) {
    const what = held === folder ? 'is a protected folder (the project checkout or the database\'s folder)' : `holds ${held}, which no bot may see`;
    return reject('bad-folder', `its folder ${folder} ${what}; register it with --cwd <a folder of its own>`);
  }
  return ok(folder);
}

/** The uid and gid a bot with this folder runs as when the arena runs as root; see the module comment. */
export function userFor(folder: string): { uid: number; gid: number } {
  try {
    const st = statSync(folder);
    if (st.uid !== 0) return { uid: st.uid, gid: st.gid !== 0 ? st.gid : st.uid };
  } catch {
    // an unreadable folder is refused elsewhere; nobody is the safe answer
  }
  return { uid: NOBODY, gid: NOBODY };
}
