/**
 * Where the bot is in an unpacked archive, and its manifest. An archive made of a folder often wraps it
 * in one top folder (`astar/arena-bot.json`, as GitHub's downloads and `zip -r astar.zip astar` do), so
 * the manifest is looked for at the top and, failing that, in the only folder there.
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import type { Manifest } from './manifest.ts';
import { MANIFEST_FILE, MANIFEST_MAX_BYTES, parseManifest } from './manifest.ts';

/** The bot's folder inside `unpacked` and its checked manifest. */
export function readBotFolder(unpacked: string): Result<{ readonly folder: string; readonly manifest: Manifest }> {
  let folder = unpacked;
  let text = readManifestText(folder);
  if (text === undefined) {
    const top = readdirSync(unpacked, { withFileTypes: true });
    if (top.length === 1 && top[0].isDirectory()) {
      folder = join(unpacked, top[0].name);
      text = readManifestText(folder);
    }
  }
  if (text === undefined) return reject('manifest', `the bot has no ${MANIFEST_FILE} at its top (nor in a single top folder)`);
  if (typeof text !== 'string') return text;
  const manifest = parseManifest(text);
  return manifest.ok ? ok({ folder, manifest: manifest.value }) : manifest;
}

/** The checked manifest at the top of `folder` (a registered bot's), undefined when it has none. */
export function readFolderManifest(folder: string): Result<Manifest | undefined> {
  const text = readManifestText(folder);
  if (text === undefined) return ok(undefined);
  return typeof text === 'string' ? parseManifest(text) : text;
}

/** The manifest's text, undefined when there is none, or a refusal (not a file, too large). */
function readManifestText(folder: string): string | undefined | Result<never> {
  let fd: number;
  try {
    // O_NOFOLLOW: intake never makes links, but the folder may come from elsewhere.
    fd = openSync(join(folder, MANIFEST_FILE), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? undefined : reject('manifest', `cannot read ${MANIFEST_FILE}: ${code ?? e}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return reject('manifest', `${MANIFEST_FILE} is not a file`);
    if (st.size > MANIFEST_MAX_BYTES) return reject('manifest', `${MANIFEST_FILE} is larger than ${MANIFEST_MAX_BYTES / 1024} KiB`);
    const buf = Buffer.alloc(st.size);
    let at = 0;
    while (at < buf.length) {
      const n = readSync(fd, buf, at, buf.length - at, at);
      if (n === 0) break;
      at += n;
    }
    return buf.subarray(0, at).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
