/**
 * A zip archive unpacked entry by entry. yauzl reads the central directory and inflates each entry as a
 * stream (checking its length and CRC against the directory); intake decides and writes every file itself
 * through an IntakeFolder. The entry count is known from the directory, so too many entries are refused
 * before anything is written. The ratio is measured against the compressed bytes of the entries read so
 * far. Unix modes in the external attributes mark links, devices and fifos: all refused.
 */
import { closeSync } from 'node:fs';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import type { Rejection, Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import type { IntakeFolder } from './intake-folder.ts';
import type { IntakeLimits } from './limits.ts';

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const WHAT: Record<number, string> = { 0o120000: 'a symbolic link', 0o020000: 'a device', 0o060000: 'a device', 0o010000: 'a fifo', 0o140000: 'a socket' };
/** "made by" Unix (3): only then do the external attributes hold a Unix mode. */
const UNIX = 3;

/**
 * Unpacks the zip file open as `fd` (already measured against the archive cap: the same open file is read,
 * so it cannot be swapped after it was measured) into `into`. yauzl closes `fd` when it is done.
 */
export function unpackZip(fd: number, into: IntakeFolder, limits: IntakeLimits): Promise<Result<void>> {
  return new Promise((resolve) => {
    yauzl.fromFd(fd, { lazyEntries: true, autoClose: true, validateEntrySizes: true, strictFileNames: false, decodeStrings: true }, (err, zip) => {
      if (err || !zip) {
        // yauzl closes a file it has opened, not one it was handed and could not read.
        closeSync(fd);
        return resolve(reject('archive', `not a valid zip archive: ${oneLine(err)}`));
      }
      if (zip.entryCount > limits.entries) {
        zip.close();
        return resolve(reject('archive', `the archive holds ${zip.entryCount} entries; at most ${limits.entries}`));
      }
      readEntries(zip, into).then(resolve);
    });
  });
}

function readEntries(zip: ZipFile, into: IntakeFolder): Promise<Result<void>> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Result<void>) => {
      if (settled) return;
      settled = true;
      zip.close();
      resolve(r);
    };
    const fail = (r: Rejection) => finish(r);
    zip.on('error', (e: Error) => fail(reject('archive', `not a valid zip archive: ${oneLine(e)}`)));
    zip.on('end', () => finish(ok(undefined)));
    zip.on('entry', (entry: Entry) => {
      if (settled) return;
      const name = entry.fileName;
      const unixMode = entry.versionMadeBy >> 8 === UNIX ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
      const type = unixMode & S_IFMT;
      if (WHAT[type]) return fail(reject('archive', `entry ${JSON.stringify(name)} is ${WHAT[type]}; only files and folders are accepted`));
      if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) return fail(reject('archive', `entry ${JSON.stringify(name)} has an unknown file type`));
      if (entry.isEncrypted()) return fail(reject('archive', `entry ${JSON.stringify(name)} is encrypted`));
      into.compressed += entry.compressedSize;
      if (name.endsWith('/') || type === S_IFDIR) {
        const added = into.addFolder(name);
        if (!added.ok) return fail(added);
        return zip.readEntry();
      }
      const fd = into.openFile(name, entry.uncompressedSize, unixMode);
      if (!fd.ok) return fail(fd);
      zip.openReadStream(entry, (e, stream) => {
        if (e || !stream) {
          into.close(fd.value);
          return fail(reject('archive', `cannot read entry ${JSON.stringify(name)}: ${oneLine(e)}`));
        }
        let closed = false;
        const close = () => {
          if (!closed) into.close(fd.value);
          closed = true;
        };
        stream.on('data', (chunk: Buffer) => {
          if (settled) return;
          const wrote = into.write(fd.value, name, chunk);
          if (!wrote.ok) {
            close();
            stream.destroy();
            fail(wrote);
          }
        });
        stream.on('error', (er: Error) => {
          close();
          fail(reject('archive', `entry ${JSON.stringify(name)} is damaged: ${oneLine(er)}`));
        });
        stream.on('end', () => {
          close();
          if (!settled) zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
}

function oneLine(e: Error | null | undefined): string {
  return (e?.message ?? 'unreadable').replace(/\s+/g, ' ').trim();
}
