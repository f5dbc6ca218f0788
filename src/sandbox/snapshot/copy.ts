/**
 * A bot's folder copied into a content-addressed store: the copy a bot plays (mounted read-only where its
 * folder was) and the hash that names its version are made in one pass, so what plays is what was hashed.
 *
 * Limits are checked WHILE walking and before any file is read: total apparent size (a sparse file counts
 * by its length, not its blocks), number of entries, depth, and path length (a path the kernel cannot name
 * is refused with a line, not an ENAMETOOLONG). Fifos, sockets and devices are refused. A symlink is copied
 * as a link and never followed while copying; it must resolve to an entry inside the snapshot (checked on
 * the copy, so a chain of links cannot climb out), else the folder is refused.
 *
 * The hash is sha256 over the sorted tree: each entry's relative path, its kind, whether it is executable,
 * a link's target, a file's length and the sha256 of its contents. Modes are normalised (0444 or 0555 for
 * files, 0555 for folders), owners are not copied: the same tree hashes the same on any machine.
 */
import { createHash, type Hash } from 'node:crypto';
import { chmodSync, closeSync, constants, fstatSync, lstatSync, mkdirSync, mkdtempSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, sep } from 'node:path';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';

/** How much of a folder a snapshot takes at most. */
export interface SnapshotLimits {
  /** Sum of the files' apparent sizes, in bytes. */
  readonly maxBytes: number;
  /** Files, folders and links together. */
  readonly maxEntries: number;
  /** Folders nested below the bot's folder. */
  readonly maxDepth: number;
}

/** The defaults of issue 29: 100 MiB, 10,000 entries, 32 levels. */
export const SNAPSHOT_LIMITS: SnapshotLimits = { maxBytes: 100 * 2 ** 20, maxEntries: 10_000, maxDepth: 32 };

/** A snapshot taken (or, with `hashOnly`, only measured). */
export interface Snapshot {
  /** sha256 hex of the tree (see the module comment). */
  readonly hash: string;
  /** The snapshot's folder in the store (absent when only hashed). */
  readonly path?: string;
  readonly bytes: number;
  readonly entries: number;
}

/** Longest path the kernel names (PATH_MAX includes the terminating NUL). */
const PATH_MAX = 4095;
const CHUNK = 1 << 20;

/** Where copies go while walking; absent = hash only. */
interface Sink {
  readonly dest: string;
}

interface Walk {
  readonly src: string;
  readonly sink: Sink | undefined;
  readonly limits: SnapshotLimits;
  readonly h: Hash;
  bytes: number;
  entries: number;
  readonly dirs: string[];
  readonly links: string[];
}

const refuse = (folder: string, why: string): Result<never> => reject('snapshot', `the bot's folder ${folder} cannot be snapshotted: ${why}`);

/**
 * Copies `folder` into `store/<hash>` (or, with `o.hashOnly`, hashes it without writing). An existing
 * snapshot of the same hash is reused. Refusals are one line naming the limit and the entry.
 */
export function takeSnapshot(folder: string, store: string, o: { readonly limits?: SnapshotLimits; readonly hashOnly?: boolean } = {}): Result<Snapshot> {
  let src: string;
  try {
    src = realpathSync(folder);
    if (!statSync(src).isDirectory()) return refuse(folder, 'it is not a folder');
  } catch (e) {
    return refuse(folder, (e as NodeJS.ErrnoException).code ?? String(e));
  }
  let tmp: string | undefined;
  if (!o.hashOnly) {
    try {
      mkdirSync(store, { recursive: true, mode: 0o700 });
      tmp = mkdtempSync(join(store, '.incoming-'));
    } catch (e) {
      return reject('snapshot', `cannot write the snapshot store ${store}: ${(e as Error).message}`);
    }
  }
  const w: Walk = { src, sink: tmp ? { dest: tmp } : undefined, limits: o.limits ?? SNAPSHOT_LIMITS, h: createHash('sha256'), bytes: 0, entries: 0, dirs: [], links: [] };
  let walked: Result<void>;
  try {
    walked = walkDir(w, '', 0);
    if (walked.ok && tmp) walked = linksStayInside(tmp, w.links);
  } catch (e) {
    walked = reject('snapshot', String((e as Error).message ?? e));
  }
  if (!walked.ok) {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
    return refuse(folder, walked.reason);
  }
  const hash = w.h.digest('hex');
  const out = { hash, bytes: w.bytes, entries: w.entries };
  if (!tmp) return ok(out);
  const final = join(store, hash);
  try {
    // Folders are made read-only last, deepest first, so the copy could be written until now.
    for (const d of [...w.dirs].reverse()) chmodSync(join(tmp, d), 0o555);
    chmodSync(tmp, 0o555);
    renameSync(tmp, final);
  } catch {
    // Taken meanwhile by another referee (same hash, same content), or already there: keep that one.
    removeTree(tmp);
    if (!isFolder(final)) return reject('snapshot', `cannot store the snapshot of ${folder} in ${store}`);
  }
  return ok({ ...out, path: final });
}

/** Removes a snapshot folder even though its folders are read-only. */
export function removeTree(path: string): void {
  try {
    for (const [d] of walkFolders(path)) chmodSync(d, 0o755);
  } catch {
    // gone already, or root (who ignores modes)
  }
  rmSync(path, { recursive: true, force: true });
}

function* walkFolders(path: string): Generator<[string]> {
  yield [path];
  for (const e of readdirSync(path, { withFileTypes: true })) if (e.isDirectory()) yield* walkFolders(join(path, e.name));
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Byte order, the same on every machine and locale. */
const byBytes = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

function walkDir(w: Walk, rel: string, depth: number): Result<void> {
  if (depth > w.limits.maxDepth) return reject('snapshot', `${rel} is nested more than ${w.limits.maxDepth} folders deep`);
  const names = readdirSync(join(w.src, rel)).sort(byBytes);
  for (const name of names) {
    const at = rel ? `${rel}/${name}` : name;
    const path = join(w.src, at);
    const longest = Math.max(Buffer.byteLength(path), w.sink ? Buffer.byteLength(join(w.sink.dest, at)) : 0);
    if (longest > PATH_MAX) return reject('snapshot', `a path in it is longer than the system can name (${longest} bytes, at ${at.slice(0, 60)}…)`);
    if (++w.entries > w.limits.maxEntries) return reject('snapshot', `it holds more than ${w.limits.maxEntries} files and folders`);
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st) return reject('snapshot', `${at} vanished while it was copied; try again`);
    if (st.isDirectory()) {
      w.h.update(`dir\0${at}\0`);
      if (w.sink) mkdirSync(join(w.sink.dest, at), { mode: 0o755 });
      w.dirs.push(at);
      const sub = walkDir(w, at, depth + 1);
      if (!sub.ok) return sub;
    } else if (st.isSymbolicLink()) {
      const target = readlinkSync(path);
      const lexical = normalize(join(dirname(at), target));
      if (isAbsolute(target) || lexical === '..' || lexical.startsWith(`..${sep}`)) return reject('snapshot', `the link ${at} points outside the folder (${target})`);
      w.h.update(`link\0${at}\0${target}\0`);
      if (w.sink) symlinkSync(target, join(w.sink.dest, at));
      w.links.push(at);
    } else if (st.isFile()) {
      // Counted by the length it claims before a byte is read: a sparse file costs its apparent size.
      w.bytes += st.size;
      if (w.bytes > w.limits.maxBytes) return reject('snapshot', `its files add up to more than ${w.limits.maxBytes} bytes (at ${at}, ${st.size} bytes)`);
      const exec = (st.mode & 0o111) !== 0;
      const copied = copyFile(path, w.sink ? join(w.sink.dest, at) : undefined, st.size, exec);
      if (!copied.ok) return reject('snapshot', `${at}: ${copied.reason}`);
      w.h.update(`file\0${at}\0${exec ? 'x' : '-'}\0${copied.value.length}\0${copied.value.digest}\0`);
    } else {
      return reject('snapshot', `${at} is a special file (fifo, socket or device), which a bot's folder may not hold`);
    }
  }
  return ok(undefined);
}

/** Copies at most `size` bytes of one regular file (opened without following a link), hashing them. */
function copyFile(path: string, dest: string | undefined, size: number, exec: boolean): Result<{ length: number; digest: string }> {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  let out: number | undefined;
  try {
    if (!fstatSync(fd).isFile()) return reject('snapshot', 'was swapped for something else while it was copied');
    if (dest) out = openSync(dest, 'wx', exec ? 0o555 : 0o444);
    const h = createHash('sha256');
    const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size, 1)));
    let length = 0;
    // Never more than the size counted against the limit, however the file grows meanwhile.
    while (length < size) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, size - length), length);
      if (n === 0) break;
      h.update(buf.subarray(0, n));
      if (out !== undefined) writeSync(out, buf, 0, n);
      length += n;
    }
    return ok({ length, digest: h.digest('hex') });
  } finally {
    closeSync(fd);
    if (out !== undefined) closeSync(out);
  }
}

/** Every copied link must resolve, within the copy, to an entry of the copy. */
function linksStayInside(root: string, links: readonly string[]): Result<void> {
  for (const at of links) {
    let real: string;
    try {
      // The native call follows each link in turn; the JS one collapses "link/.." lexically first.
      real = realpathSync.native(join(root, at));
    } catch {
      return reject('snapshot', `the link ${at} points to nothing inside the folder`);
    }
    if (real !== root && !real.startsWith(root + sep)) return reject('snapshot', `the link ${at} leads outside the folder`);
  }
  return ok(undefined);
}
