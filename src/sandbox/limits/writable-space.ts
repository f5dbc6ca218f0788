/**
 * A bot's writable space: a scratch (/tmp and /dev/shm, emptied at every start) and a persistent cache of
 * its own (ARENA_CACHE; kept across games and matches, not part of its version, cleared by
 * `arena bot clear-cache`), under one disk budget per bot (limits.diskBytes).
 *
 * As root, each running bot gets a tmpfs of exactly its budget, mounted on the host in a folder only root
 * can enter: its scratch and its cache are folders of it, so the kernel refuses a write past the budget
 * (ENOSPC) whichever of them it fills, and the pages the bot writes are charged to its memory control
 * group, so the budget also counts against its memory. The cache is copied in (owned by the bot's uid)
 * before the start and copied out after the bot is gone, never following a link, and only when the disk
 * that holds the caches keeps a reserve free afterwards: a bot can never consume the disk the database
 * needs. Without root nothing can be mounted: the scratch is bwrap's own tmpfs of the budget's size, and
 * the cache is the bot's cache folder itself, bounded by nothing but RLIMIT_FSIZE per file (the probe says so).
 */
import { chownSync, copyFileSync, lchownSync, lstatSync, mkdirSync, readdirSync, readlinkSync, renameSync, rmdirSync, rmSync, statfsSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { alive } from '../../transport/process/cpu-cgroup.ts';
import { runCommand } from '../../transport/process/run-command.ts';

/** Where the cache appears inside a sandbox (ARENA_CACHE). */
export const CACHE_INSIDE = '/cache';
/** Free space the disk holding the caches must keep after a cache is written back, bytes. */
export const DISK_RESERVE = 512 * 1024 * 1024;
/** Files and folders a space may hold (tmpfs nr_inodes): every inode costs the host kernel memory. */
export const SPACE_INODES = 65_536;

/** The folder of every bot's persistent cache: $ARENA_BOT_CACHE, else a system or per-user state folder. */
export function cacheRoot(root = process.getuid?.() === 0): string {
  if (process.env.ARENA_BOT_CACHE) return process.env.ARENA_BOT_CACHE;
  if (root) return '/var/lib/puzzle-arena/bot-cache';
  return join(process.env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'puzzle-arena', 'bot-cache');
}

/** The cache folder of bot `name` on the host (the name encoded so it is one plain folder name: no `/`, `.` or `..`). */
export const cacheOf = (name: string, root?: boolean): string => join(cacheRoot(root), encodeURIComponent(name).replace(/\./g, '%2E'));

/** Empties bot `name`'s persistent cache; says how many bytes it held. */
export function clearCache(name: string): Result<{ folder: string; bytes: number }> {
  const folder = cacheOf(name);
  let bytes = 0;
  try {
    bytes = sizeOf(folder);
    rmSync(folder, { recursive: true, force: true });
  } catch (e) {
    return reject('io', `cannot clear ${folder}: ${(e as Error).message}`);
  }
  return ok({ folder, bytes });
}

function sizeOf(path: string, depth = 0): number {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory() || depth > 64) return st.isFile() ? st.size : 0;
  return readdirSync(path).reduce((n, e) => n + sizeOf(join(path, e), depth + 1), 0);
}

/**
 * Copies `from` into `to` (made), folders, regular files and symlinks as links, nothing else; a link is
 * never followed. `owner` chowns what it makes. Entries that fail (too deep, a name too long) are left out.
 */
function copyTree(from: string, to: string, owner?: { uid: number; gid: number }, depth = 0): void {
  mkdirSync(to, { recursive: true, mode: 0o700 });
  if (owner) chownSync(to, owner.uid, owner.gid);
  if (depth > 64) return;
  let names: string[];
  try {
    names = readdirSync(from);
  } catch {
    return;
  }
  for (const name of names) {
    const [src, dst] = [join(from, name), join(to, name)];
    try {
      const st = lstatSync(src);
      if (st.isDirectory()) copyTree(src, dst, owner, depth + 1);
      else if (st.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
      else if (st.isFile()) copyFileSync(src, dst);
      else continue;
      if (owner && !st.isDirectory()) lchownSync(dst, owner.uid, owner.gid);
    } catch {
      // left out: the space is full, the name too long; the rest is still copied
    }
  }
}

/** A running bot's writable places on the host. */
export interface WritableSpace {
  /** Host folder shown as /tmp. Absent: bwrap's own tmpfs of the budget (no root). */
  readonly tmp?: string;
  /** Host folder shown as /dev/shm. Absent: bwrap's own tmpfs. */
  readonly shm?: string;
  /** Host folder shown as ARENA_CACHE. */
  readonly cache: string;
  /** True when the budget is enforced by the kernel for scratch and cache together. */
  readonly bounded: boolean;
  /** Writes the cache back (as root) and unmounts the space. Call once the bot is gone. Idempotent. */
  release(): void;
}

let serial = 0;
/** The releases of this referee's spaces still mounted. */
const open = new Set<() => void>();
let hooked = false;
/** Where spaces are mounted (a folder only root can enter). */
const SPACES = '/run/puzzle-arena/spaces';

/** Readies bot `name`'s space for one start, as `user` (root) or the referee's own user. */
export function openSpace(name: string, diskBytes: number, user: { uid: number; gid: number } | undefined): Result<WritableSpace> {
  const cache = cacheOf(name, user !== undefined);
  try {
    mkdirSync(cache, { recursive: true, mode: 0o700 });
  } catch (e) {
    return reject('sandbox', `cannot make the bot's cache folder ${cache}: ${(e as Error).message}`);
  }
  if (!user) return ok({ cache, bounded: false, release: () => undefined });

  tidySpaces();
  const dir = join(SPACES, `${process.pid}-${++serial}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    return reject('sandbox', `cannot make the bot's space ${dir}: ${(e as Error).message}`);
  }
  const size = Math.max(1024 * 1024, Math.floor(diskBytes));
  const mounted = runCommand('mount', ['-t', 'tmpfs', '-o', `size=${size},nr_inodes=${SPACE_INODES},mode=0755,nosuid,nodev`, 'arena-bot-space', dir], { env: SYSTEM_PATH });
  if (mounted.status !== 0) {
    rmdirSync(dir);
    return reject('sandbox', `cannot mount the bot's disk budget (a tmpfs of ${size} bytes) on ${dir}: ${(mounted.stderr || mounted.error || '').trim()}`);
  }
  const inner = { tmp: join(dir, 'tmp'), shm: join(dir, 'shm'), cache: join(dir, 'cache') };
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    open.delete(release);
    writeBack(inner.cache, cache, size);
    unmount(dir);
  };
  open.add(release);
  if (!hooked) {
    hooked = true;
    // A referee that exits with bots still running (Ctrl-C) gives their spaces back too.
    process.on('exit', () => {
      for (const r of [...open]) r();
    });
  }
  try {
    for (const d of [inner.tmp, inner.shm]) {
      mkdirSync(d, { mode: 0o700 });
      chownSync(d, user.uid, user.gid);
    }
    copyTree(cache, inner.cache, user);
  } catch (e) {
    released = true;
    open.delete(release);
    unmount(dir);
    return reject('sandbox', `cannot ready the bot's space ${dir}: ${(e as Error).message}`);
  }
  return ok({ ...inner, bounded: true, release });
}

const SYSTEM_PATH = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' };

/** Unmounts a space and removes its folder (a busy one is detached now and freed with its last user). */
function unmount(dir: string): void {
  if (runCommand('umount', [dir], { env: SYSTEM_PATH }).status !== 0) runCommand('umount', ['-l', dir], { env: SYSTEM_PATH });
  try {
    rmdirSync(dir);
  } catch {
    // still mounted: /run is a tmpfs, gone at the next boot
  }
}

/** Unmounts the spaces of referees that are gone (killed before they could), so their memory is freed. */
function tidySpaces(): void {
  let names: string[] = [];
  try {
    names = readdirSync(SPACES);
  } catch {
    return;
  }
  for (const name of names) {
    const owner = Number(name.split('-')[0]);
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && !alive(owner)) unmount(join(SPACES, name));
  }
}

/**
 * Replaces the host cache with the space's, when it holds no more than the budget (sparse files count at
 * their full length, as they would be written) and the disk keeps its reserve afterwards; else the old
 * cache stays.
 */
function writeBack(from: string, to: string, budget: number): void {
  const bytes = sizeOf(from);
  if (bytes > budget) return;
  try {
    const fs = statfsSync(join(to, '..'));
    if (fs.bavail * fs.bsize - bytes < DISK_RESERVE) return;
  } catch {
    return;
  }
  const fresh = `${to}.new-${process.pid}`;
  try {
    rmSync(fresh, { recursive: true, force: true });
    copyTree(from, fresh);
    rmSync(to, { recursive: true, force: true });
    renameSync(fresh, to);
  } catch {
    rmSync(fresh, { recursive: true, force: true });
  }
}
