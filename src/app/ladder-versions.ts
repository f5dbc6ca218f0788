/**
 * A bot version is its code: the sha256 of its folder's files and its command line. A built-in bot's folder
 * is bots/<name>/ (the code it shares in bots/shared/ is the checkout's, not the bot's); a command bot's is
 * its registered --cwd; a command bot without one is its command alone. Files a running bot or its runtime
 * write beside its code (Python's __pycache__, node_modules installed later, .git) are left out, so a bot
 * does not become a new version by running.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import type { NewBotVersion } from '../store/ladder-types.ts';
import type { ResolvedBot } from './bot-registry.ts';

/** Folders never hashed: caches and tools' state, not the bot's code. */
const SKIPPED = new Set(['.git', 'node_modules', '__pycache__', '.cache', '.venv']);
/** A folder with more than this many files is refused: the hash would take too long every poll. */
const MAX_FILES = 20_000;
/** Bytes read per file; a larger file is hashed by its size and modification time instead. */
const MAX_FILE_BYTES = 64 * 2 ** 20;

/** The version of a resolved bot as it is on disk now. */
export function versionOf(bot: ResolvedBot, projectRoot: string): Result<NewBotVersion> {
  if (bot.source === 'remote') return reject('remote', `bot ${bot.name} is remote: the ladder cannot start it, so it is not placed`);
  const folder = bot.source === 'builtin' ? join(projectRoot, 'bots', bot.name.split(' ')[0]!) : bot.cwd;
  // A built-in's command line holds this checkout's paths; its name (with flags) is what names its code.
  const command = bot.source === 'builtin' ? bot.name : [bot.command!, ...bot.args].join(' ');
  const h = createHash('sha256').update(`command\0${command}\0`);
  if (folder !== undefined) {
    const hashed = hashFolder(folder, h);
    if (!hashed.ok) return hashed;
  }
  return { ok: true, value: { bot: bot.name, hash: h.digest('hex'), command, ...(folder !== undefined ? { folder } : {}) } };
}

/** Feeds every file under `root` into `h`, by path in sorted order (the same tree, the same hash anywhere). */
function hashFolder(root: string, h: ReturnType<typeof createHash>): Result<void> {
  let files = 0;
  const walk = (dir: string, rel: string): Result<void> => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (e) {
      return reject('bad-folder', `cannot read ${dir}: ${(e as Error).message}`);
    }
    for (const name of names) {
      if (SKIPPED.has(name)) continue;
      const path = join(dir, name);
      const at = rel ? `${rel}/${name}` : name;
      const st = lstatSync(path, { throwIfNoEntry: false });
      if (!st) continue; // removed while walking
      if (st.isDirectory()) {
        const sub = walk(path, at);
        if (!sub.ok) return sub;
      } else if (st.isSymbolicLink()) {
        h.update(`link\0${at}\0${readlinkSync(path)}\0`);
      } else if (st.isFile()) {
        if (++files > MAX_FILES) return reject('bad-folder', `${root} holds more than ${MAX_FILES} files: too many to hash as a bot version`);
        h.update(`file\0${at}\0${st.size}\0`);
        if (st.size > MAX_FILE_BYTES) h.update(`mtime\0${st.mtimeMs}\0`);
        else h.update(readFileSync(path));
      }
    }
    return { ok: true, value: undefined };
  };
  return walk(root, '');
}
