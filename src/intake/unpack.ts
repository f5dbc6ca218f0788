/**
 * Unpacking a submitted archive: the format is told by its first bytes (never by its name), the archive is
 * measured against its cap before it is read, and it is unpacked into a NEW folder that is removed again
 * on any refusal, so a refused archive leaves nothing behind.
 */
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import type { Unpacked } from './intake-folder.ts';
import { IntakeFolder } from './intake-folder.ts';
import type { IntakeLimits } from './limits.ts';
import { bytesText, INTAKE_LIMITS } from './limits.ts';
import { unpackTar } from './unpack-tar.ts';
import { unpackZip } from './unpack-zip.ts';

/** The archive formats intake reads. */
export type ArchiveFormat = 'tar.gz' | 'tar' | 'zip';

/** The format of an archive from its first 512 bytes (or fewer), if it is one intake reads. */
export function archiveFormat(head: Uint8Array): ArchiveFormat | undefined {
  if (head.length >= 3 && head[0] === 0x1f && head[1] === 0x8b && head[2] === 0x08) return 'tar.gz';
  const pk = head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b;
  if (pk && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6))) return 'zip';
  // POSIX "ustar\0" and GNU "ustar  \0" both start with these five bytes at offset 257.
  if (head.length >= 262 && Buffer.from(head.subarray(257, 262)).toString('latin1') === 'ustar') return 'tar';
  return undefined;
}

/**
 * Unpacks the archive file `archive` into `folder`, which must not exist yet. On a refusal the folder is
 * gone again and the reason is one line.
 */
export async function unpackArchive(archive: string, folder: string, limits: IntakeLimits = INTAKE_LIMITS): Promise<Result<Unpacked>> {
  let fd: number;
  try {
    fd = openSync(archive, 'r');
  } catch (e) {
    return reject('archive', `cannot read ${archive}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  let size: number;
  let format: ArchiveFormat | undefined;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return reject('archive', `${archive} is not a file`);
    size = stat.size;
    const head = Buffer.alloc(512);
    format = archiveFormat(head.subarray(0, readSync(fd, head, 0, 512, 0)));
  } catch (e) {
    closeSync(fd);
    return reject('archive', `cannot read ${archive}: ${(e as NodeJS.ErrnoException).code ?? e}`);
  }
  if (size > limits.archiveBytes || !format) {
    closeSync(fd);
    if (!format) return reject('archive', 'not an archive: a .tar.gz, .tgz, .tar or .zip file is expected');
    return reject('archive', `the archive is ${bytesText(size)}; at most ${bytesText(limits.archiveBytes)}`);
  }
  const into = IntakeFolder.create(folder, limits);
  if (!into.ok) {
    closeSync(fd);
    return into;
  }
  let done: Result<unknown>;
  try {
    if (format === 'zip') {
      done = await unpackZip(fd, into.value, limits);
    } else {
      done = await unpackTar(createReadStream('', { fd, start: 0, highWaterMark: 64 * 1024 }), into.value, limits);
    }
  } catch (e) {
    done = reject('archive', `cannot unpack: ${String((e as Error).message ?? e).replace(/\s+/g, ' ')}`);
  }
  if (!done.ok) {
    into.value.discard();
    return done;
  }
  return ok(into.value.done(size));
}

/**
 * Unpacks a tar or tar.gz archive arriving as a stream (an upload's body) into `folder`, which must not
 * exist yet; the archive cap is counted on the bytes as they arrive. On a refusal the folder is gone again.
 */
export async function unpackTarStream(source: Readable, folder: string, limits: IntakeLimits = INTAKE_LIMITS): Promise<Result<Unpacked>> {
  const into = IntakeFolder.create(folder, limits);
  if (!into.ok) {
    source.destroy();
    return into;
  }
  const done = await unpackTar(source, into.value, limits);
  if (!done.ok) {
    into.value.discard();
    return done;
  }
  return ok(into.value.done(done.value));
}
