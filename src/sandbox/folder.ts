/**
 * A bot's own folder: shown read-only (as its snapshot where the bot has one, snapshot/), it must not be,
 * or hold, anything the bot must not see: not /, not a home folder or /home, not a folder holding the
 * results database, the project checkout or another protected path, judged by its real path. A registered
 * bot without --cwd has the referee's current folder as its folder, as it had before the sandbox; that is
 * refused when it is such a folder, with the way out in the reason. As root each start runs as a uid of
 * its own (limits/uid-pool.ts); its writable places are its scratch and its cache (limits/writable-space.ts).
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { isWithin, realOf } from './trusted-path.ts';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';

/** The unprivileged uid and gid of a root sandbox that starts no bot (a check of what it would run). */
export const NOBODY = 65534;

const HOME_FOLDERS = /^\/(root|home)\/?$|^\/home\/[^/]+\/?$/;

/**
 * Why `folder` cannot be a bot's folder, or its real path. `guarded`: paths no bot folder may hold. The
 * folder is judged by its REAL path (a folder that is, or sits below, a symlink to /, a home folder, the
 * checkout or the database's folder is refused), and a symlink to a folder of another owner than the
 * link's is refused: registering it would hand that owner's files to the bot.
 */
export function checkFolder(folder: string, guarded: readonly string[], home = process.env.HOME): Result<string> {
  let real: string;
  try {
    real = realpathSync.native(folder);
    if (!statSync(real).isDirectory()) throw new Error('not a folder');
  } catch {
    return reject('bad-folder', `its folder ${folder} does not exist`);
  }
  const named = real === folder ? folder : `${folder} (really ${real})`;
  const realHome = home !== undefined && home !== '/' ? (realOf(home) ?? home) : undefined;
  if (real === '/' || HOME_FOLDERS.test(real) || real === realHome) {
    return reject('bad-folder', `its folder would be ${named}, which is / or a home folder; register it with --cwd <a folder of its own>`);
  }
  const held = guarded.find((g) => isWithin(realOf(g) ?? g, real));
  if (held !== undefined) {
    const what = (realOf(held) ?? held) === real ? 'is a protected folder (the project checkout or the database\'s folder)' : `holds ${held}, which no bot may see`;
    return reject('bad-folder', `its folder ${named} ${what}; register it with --cwd <a folder of its own>`);
  }
  const link = lstatSync(folder, { throwIfNoEntry: false });
  if (link?.isSymbolicLink()) {
    const target = statSync(real);
    if (target.uid !== link.uid) return reject('bad-folder', `its folder ${named} is a link to a folder of another user (uid ${target.uid}, the link's is ${link.uid}); register the folder itself`);
  }
  return ok(real);
}
