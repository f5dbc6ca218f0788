/**
 * The one place intake writes: a NEW folder made for one archive, and files written by intake itself
 * (never by an archive library). Folders are made one by one with a plain mkdir (never recursive, never
 * over an existing path) and files opened O_CREAT|O_EXCL|O_NOFOLLOW, so nothing an archive says can make
 * a write land outside the folder: intake creates no symlink, and every parent on a path is a folder it
 * made itself, inside a top folder only its owner may enter (0700).
 *
 * The folder also meters: every byte written is counted against the unpacked cap and the compression
 * ratio before it is written.
 */
import { chmodSync, closeSync, constants, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Rejection, Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import { checkEntryPath } from './entry-path.ts';
import type { IntakeLimits } from './limits.ts';
import { bytesText } from './limits.ts';

/** What was unpacked. */
export interface Unpacked {
  /** The new folder holding the bot's files. */
  readonly folder: string;
  readonly files: number;
  readonly folders: number;
  /** Bytes of all files together. */
  readonly bytes: number;
  /** The archive's length, in bytes. */
  readonly archiveBytes: number;
}

/** What an entry key holds, and its name as first spelled (a parent spelled differently is a case duplicate). */
type Kind = { readonly kind: 'file'; readonly spelled: string } | { readonly kind: 'dir'; readonly spelled: string; explicit: boolean };

const FILE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** A new folder being filled from one archive. */
export class IntakeFolder {
  /** Archive bytes read so far; the reader keeps this up to date (the ratio is measured against it). */
  compressed = 0;
  private bytes = 0;
  private entries = 0;
  private files = 0;
  private folders = 0;
  private readonly kinds = new Map<string, Kind>();

  private constructor(
    readonly root: string,
    private readonly limits: IntakeLimits,
  ) {}

  /** Makes `folder`, which must not exist yet (its parent must). */
  static create(folder: string, limits: IntakeLimits): Result<IntakeFolder> {
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'EEXIST' ? 'it already exists' : code === 'ENOENT' ? 'its parent folder does not exist' : String(code ?? e);
      return reject('intake', `cannot unpack into ${folder}: ${why}`);
    }
    return ok(new IntakeFolder(folder, limits));
  }

  /** Records a folder entry (mode is ignored: folders are 0755). */
  addFolder(name: string): Result<void> {
    const path = this.place(name, 'dir');
    return path.ok ? ok(undefined) : path;
  }

  /** Opens a new file for entry `name` of `size` declared bytes; the caps are checked on the declared size first. */
  openFile(name: string, size: number, mode: number): Result<number> {
    if (size > this.limits.unpackedBytes - this.bytes) return this.overUnpacked(name, size);
    const path = this.place(name, 'file');
    if (!path.ok) return path;
    try {
      return ok(openSync(path.value, FILE_FLAGS, mode & 0o111 ? 0o755 : 0o644));
    } catch (e) {
      return reject('archive', `cannot write entry ${JSON.stringify(name)}: ${(e as NodeJS.ErrnoException).code ?? e}`);
    }
  }

  /** Writes the next chunk of an open file, after counting it against the caps. */
  write(fd: number, name: string, chunk: Uint8Array): Result<void> {
    this.bytes += chunk.length;
    if (this.bytes > this.limits.unpackedBytes) return this.overUnpacked(name, 0);
    if (this.bytes > this.limits.ratioGraceBytes && this.bytes > this.limits.ratio * Math.max(this.compressed, 1)) {
      return reject('archive', `the archive unpacks to more than ${this.limits.ratio} times its size (${bytesText(this.bytes)} from ${bytesText(this.compressed)}, at entry ${JSON.stringify(name)}): refused as a compression bomb`);
    }
    for (let at = 0; at < chunk.length; ) at += writeSync(fd, chunk, at);
    return ok(undefined);
  }

  /** Closes a file opened by `openFile`. */
  close(fd: number): void {
    closeSync(fd);
  }

  /** The counts once every entry is in. */
  done(archiveBytes: number): Unpacked {
    // Private (0700) while it was being filled; readable now, like any bot folder, for the snapshot taken of it.
    chmodSync(this.root, 0o755);
    return { folder: this.root, files: this.files, folders: this.folders, bytes: this.bytes, archiveBytes };
  }

  /** Removes the folder and everything written so far (on any refusal). */
  discard(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  /** Checks an entry's name and the tree so far; makes its missing parent folders; returns its path. */
  private place(name: string, kind: 'file' | 'dir'): Result<string> {
    const checked = checkEntryPath(name, this.limits);
    if (!checked.ok) return checked;
    const { parts, keys } = checked.value;
    if (parts.length === 0) {
      return kind === 'dir' ? ok(this.root) : reject('archive', `entry ${JSON.stringify(name)} names the top folder but is a file`);
    }
    if (++this.entries > this.limits.entries) return reject('archive', `the archive holds more than ${this.limits.entries} entries`);
    for (let i = 0; i < parts.length - 1; i++) {
      const seen = this.kinds.get(keys[i]);
      if (seen?.kind === 'file') return reject('archive', `entry ${JSON.stringify(name)} is under ${JSON.stringify(parts.slice(0, i + 1).join('/'))}, which is a file`);
      if (seen && seen.spelled !== parts[i]) return this.duplicate(name);
      if (!seen) {
        const made = this.mkdir(parts.slice(0, i + 1), name);
        if (!made.ok) return made;
        this.kinds.set(keys[i], { kind: 'dir', spelled: parts[i], explicit: false });
      }
    }
    const key = keys[keys.length - 1];
    const seen = this.kinds.get(key);
    const path = join(this.root, ...parts);
    if (kind === 'dir') {
      if (seen?.kind === 'dir' && !seen.explicit && seen.spelled === parts[parts.length - 1]) {
        seen.explicit = true;
        return ok(path);
      }
      if (seen) return this.duplicate(name);
      const made = this.mkdir(parts, name);
      if (!made.ok) return made;
      this.kinds.set(key, { kind: 'dir', spelled: parts[parts.length - 1], explicit: true });
      return ok(path);
    }
    if (seen) return this.duplicate(name);
    this.kinds.set(key, { kind: 'file', spelled: parts[parts.length - 1] });
    this.files++;
    return ok(path);
  }

  private mkdir(parts: readonly string[], name: string): Result<void> {
    try {
      mkdirSync(join(this.root, ...parts), { mode: 0o755 });
      this.folders++;
      return ok(undefined);
    } catch (e) {
      return reject('archive', `cannot make the folder of entry ${JSON.stringify(name)}: ${(e as NodeJS.ErrnoException).code ?? e}`);
    }
  }

  private duplicate(name: string): Rejection {
    return reject('archive', `entry ${JSON.stringify(name)} appears twice (names are compared ignoring case and Unicode normalisation)`);
  }

  private overUnpacked(name: string, size: number): Rejection {
    const at = size > 0 ? ` (entry ${JSON.stringify(name)} declares ${bytesText(size)})` : ` (at entry ${JSON.stringify(name)})`;
    return reject('archive', `the archive unpacks to more than ${bytesText(this.limits.unpackedBytes)}${at}`);
  }
}
