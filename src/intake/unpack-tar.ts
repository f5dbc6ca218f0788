/**
 * A tar archive (plain or gzip-compressed) unpacked from a stream. node-tar's Parser only parses: it reads
 * headers (ustar, pax and GNU long names) and hands each entry's bytes over; intake decides and writes
 * every file itself through an IntakeFolder. Anything but a regular file or a folder is refused, and so is
 * any warning of the parser (a bad checksum, a truncated body, a broken gzip stream): a damaged archive is
 * never half-accepted.
 */
import type { Readable } from 'node:stream';
import { Parser } from 'tar';
import type { ReadEntry } from 'tar';
import type { Rejection, Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import type { IntakeFolder } from './intake-folder.ts';
import type { IntakeLimits } from './limits.ts';
import { bytesText } from './limits.ts';

const STEP = 4096;
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);
const WHAT: Record<string, string> = {
  SymbolicLink: 'a symbolic link',
  Link: 'a hard link',
  CharacterDevice: 'a device',
  BlockDevice: 'a device',
  FIFO: 'a fifo',
};

/**
 * Reads `source` to its end (or to the first refusal, when it is destroyed) into `into`. Returns the
 * archive's length. The caller removes the folder on a refusal.
 */
export function unpackTar(source: Readable, into: IntakeFolder, limits: IntakeLimits): Promise<Result<number>> {
  return new Promise((resolve) => {
    let settled = false;
    let open: { fd: number; name: string } | undefined;
    // gzip or plain tar only (the formats intake names); no brotli or zstd guessing.
    const parser = new Parser({ strict: true, maxMetaEntrySize: limits.pathBytes * 4, brotli: false, zstd: false });
    const finish = (r: Result<number>) => {
      if (settled) return;
      settled = true;
      if (open) into.close(open.fd);
      open = undefined;
      source.destroy();
      parser.removeAllListeners('entry');
      parser.on('error', () => {});
      resolve(r);
    };
    const fail = (r: Rejection) => finish(r);

    parser.on('entry', (entry: ReadEntry) => {
      if (settled) return void entry.resume();
      const name = entry.path;
      if (WHAT[entry.type]) return fail(reject('archive', `entry ${JSON.stringify(name)} is ${WHAT[entry.type]}; only files and folders are accepted`));
      if (entry.type === 'Directory') {
        const added = into.addFolder(name);
        if (!added.ok) return fail(added);
        return void entry.resume();
      }
      if (!FILE_TYPES.has(entry.type)) return fail(reject('archive', `entry ${JSON.stringify(name)} is of an unsupported tar type (${entry.type})`));
      const fd = into.openFile(name, entry.size, entry.mode ?? 0o644);
      if (!fd.ok) return fail(fd);
      open = { fd: fd.value, name };
      entry.on('data', (chunk: Buffer) => {
        if (settled || !open) return;
        const wrote = into.write(open.fd, name, chunk);
        if (!wrote.ok) fail(wrote);
      });
      entry.on('end', () => {
        if (open && !settled) into.close(open.fd);
        open = undefined;
      });
    });
    parser.on('warn', (code: string, message: string | Error) => fail(reject('archive', `the tar archive is damaged or truncated: ${oneLine(message)}`)));
    parser.on('error', (e: Error) => fail(reject('archive', `the tar archive is damaged or truncated: ${oneLine(e)}`)));
    parser.on('end', () => finish(ok(into.compressed)));

    source.on('data', (chunk: Buffer) => {
      let full = false;
      // The parser inflates each write at once and gzip inflates up to ~1000:1, so writes of STEP bytes
      // keep at most ~4 MiB in memory before the caps see it, whatever the source's chunks are.
      for (let at = 0; at < chunk.length && !settled; at += STEP) {
        const piece = chunk.subarray(at, at + STEP);
        into.compressed += piece.length;
        if (into.compressed > limits.archiveBytes) return fail(reject('archive', `the archive is larger than ${bytesText(limits.archiveBytes)}`));
        full = !parser.write(piece) || full;
      }
      if (full && !settled) {
        source.pause();
        parser.once('drain', () => source.resume());
      }
    });
    source.on('end', () => {
      if (!settled) parser.end();
    });
    source.on('error', (e) => fail(reject('archive', `cannot read the archive: ${oneLine(e)}`)));
  });
}

function oneLine(e: string | Error): string {
  const m = typeof e === 'string' ? e : e.message;
  return m.replace(/\s+/g, ' ').trim().replace(/^TAR_[A-Z_]+:?\s*/, '');
}
