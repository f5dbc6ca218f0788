/**
 * A bot's own folder, shown to it writable (as root it runs as a uid of its own, limits/uid-pool.ts, so it
 * writes there only where the folder's permissions let others write; its own writable places are its
 * scratch and its cache, limits/writable-space.ts).
 *
 * The folder is shown writable, so it must not be, or hold, anything the bot must not touch: not /, not
 * a home folder or /home, not a folder holding the results database, the project checkout or another
 * protected path. A registered bot without --cwd has the referee's current folder as its folder, as it had
 * before the sandbox; that is refused when it is such a folder, with the way out in the reason.
 */
import { statSync } from 'node:fs';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';

/** The unprivileged uid and gid of a root sandbox that starts no bot (a check of what it would run). */
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
