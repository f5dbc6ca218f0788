/**
 * A bot's folder packed into a canonical .tar.gz for `arena submit`: entries in byte order of their paths,
 * modes reduced to 0644/0755, no owners, times or devices (node-tar's portable mode, every mtime 0, the
 * gzip header's too), so one tree always packs to the same bytes. What the manifest's `exclude` patterns
 * match (.gitignore rules, through the `ignore` package) is left out. The same caps as unpacking hold, so a
 * folder that packs is one the arena would unpack. Special files are refused; a symlink is packed as the
 * file it points to only when that file is inside the folder, else refused (the arena accepts no links).
 */
import { createWriteStream, lstatSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import ignore from 'ignore';
import { create } from 'tar';
import type { WriteEntry } from 'tar';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import { checkEntryPath } from './entry-path.ts';
import type { IntakeLimits } from './limits.ts';
import { bytesText, INTAKE_LIMITS } from './limits.ts';

/** What was packed. */
export interface Packed {
  readonly archive: string;
  /** The archive's length, in bytes. */
  readonly archiveBytes: number;
  /** Paths packed, folders ending in '/', in archive order. */
  readonly paths: readonly string[];
  /** Bytes of the files packed. */
  readonly bytes: number;
}

/** Options of `packFolder`. */
export interface PackOptions {
  /** .gitignore-style patterns (the manifest's `exclude`). */
  readonly exclude?: readonly string[];
  readonly limits?: IntakeLimits;
}

/** Byte order, the same on every machine and locale. */
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Packs `folder` into the new file `archive` (which must not exist). */
export async function packFolder(folder: string, archive: string, o: PackOptions = {}): Promise<Result<Packed>> {
  const limits = o.limits ?? INTAKE_LIMITS;
  const listed = listFolder(folder, o.exclude ?? [], limits);
  if (!listed.ok) return listed;
  const { root, paths, bytes } = listed.value;
  if (paths.length === 0) return reject('pack', `nothing to pack: ${folder} is empty, or everything in it is excluded`);
  let written = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      written += chunk.length;
      if (written > limits.archiveBytes) return done(new Error(`the packed archive is larger than ${bytesText(limits.archiveBytes)}`));
      done(null, chunk);
    },
  });
  const onWriteEntry = (entry: WriteEntry) => {
    // Canonical modes: only "is it executable" survives.
    const st = entry.stat;
    if (st) st.mode = (st.mode & ~0o7777) | (st.isDirectory() || st.mode & 0o111 ? 0o755 : 0o644);
  };
  try {
    const tar = create({ cwd: root, gzip: { level: 9 }, portable: true, mtime: new Date(0), noDirRecurse: true, follow: true, strict: true, onWriteEntry }, paths.map((p) => p.replace(/\/$/, '')));
    await pipeline(tar, meter, createWriteStream(archive, { flags: 'wx', mode: 0o644 }));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST') rmSync(archive, { force: true });
    return reject('pack', code === 'EEXIST' ? `${archive} already exists` : `cannot pack ${folder}: ${(e as Error).message.replace(/\s+/g, ' ')}`);
  }
  return ok({ archive, archiveBytes: written, paths, bytes });
}

/** The folder's entries to pack, sorted, with the caps and the link rules checked. */
export function listFolder(folder: string, exclude: readonly string[], limits: IntakeLimits = INTAKE_LIMITS): Result<{ root: string; paths: string[]; bytes: number }> {
  let root: string;
  try {
    root = realpathSync(folder);
    if (!statSync(root).isDirectory()) return reject('pack', `${folder} is not a folder`);
  } catch (e) {
    return reject('pack', `cannot read ${folder}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  const ig = ignore().add([...exclude]);
  const paths: string[] = [];
  let bytes = 0;
  const refuse = (rel: string, why: string) => reject('pack', `${join(folder, rel)} ${why}`);
  const walk = (rel: string): Result<void> => {
    for (const name of readdirSync(join(root, rel)).sort(byBytes)) {
      const at = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(root, at));
      const isDir = st.isDirectory();
      if (ig.ignores(isDir ? `${at}/` : at)) continue;
      const named = checkEntryPath(at, limits);
      if (!named.ok) return reject('pack', named.reason);
      if (paths.length >= limits.entries) return reject('pack', `${folder} holds more than ${limits.entries} files and folders (exclude what the bot does not need)`);
      let size = st.size;
      if (st.isSymbolicLink()) {
        const target = linkTarget(root, at);
        if (!target.ok) return refuse(at, target.reason);
        size = target.value;
      } else if (!isDir && !st.isFile()) {
        return refuse(at, 'is not a regular file, folder or link (a fifo, socket or device cannot be packed)');
      }
      paths.push(isDir ? `${at}/` : at);
      if (isDir) {
        const inner = walk(at);
        if (!inner.ok) return inner;
      } else if ((bytes += size) > limits.unpackedBytes) {
        return reject('pack', `${folder} holds more than ${bytesText(limits.unpackedBytes)} of files (exclude what the bot does not need)`);
      }
    }
    return ok(undefined);
  };
  const walked = walk('');
  return walked.ok ? ok({ root, paths, bytes }) : walked;
}

/** The size of the regular file inside `root` that the link `rel` resolves to, or why it is refused. */
function linkTarget(root: string, rel: string): Result<number> {
  let real: string;
  try {
    real = realpathSync(join(root, rel));
  } catch {
    return reject('pack', 'is a broken symbolic link');
  }
  if (!real.startsWith(root + sep)) return reject('pack', `is a symbolic link to ${real}, outside the folder`);
  const st = statSync(real);
  if (!st.isFile()) return reject('pack', 'is a symbolic link to a folder or a special file (only links to files are packed, as copies)');
  return ok(st.size);
}
