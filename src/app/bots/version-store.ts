/**
 * Versions, content-addressed: a bot folder packed canonically (src/intake/pack.ts: sorted entries, no
 * owners, times or devices, so one tree always packs to the same bytes), named by the sha256 of those
 * bytes, and stored once in the database in blocks of at most 1 MiB. Any machine of the database fetches a
 * version by its hash and checks the hash before it unpacks a byte.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import type { IntakeLimits } from '../../intake/limits.ts';
import { MANIFEST_FILE } from '../../intake/manifest.ts';
import { packFolder } from '../../intake/pack.ts';
import { VERSION_BLOCK_BYTES } from '../../store/steps/submission-schema.ts';
import type { AppContext } from '../context.ts';

/** A version packed and stored. */
export interface StoredVersion {
  /** sha256 hex of the canonical archive. */
  readonly hash: string;
  /** The canonical archive's length. */
  readonly bytes: number;
  /** False when the database already held this version (nothing was written). */
  readonly added: boolean;
}

/** Packs `folder` canonically (leaving out what `exclude` matches) into the new file `archive`, and hashes it. */
export async function packVersion(folder: string, archive: string, exclude: readonly string[], limits: IntakeLimits): Promise<Result<{ hash: string; data: Buffer }>> {
  const packed = await packFolder(folder, archive, { exclude, limits });
  if (!packed.ok) return packed;
  // Every machine reads the manifest from the version itself, so `exclude` must leave it in.
  if (!packed.value.paths.includes(MANIFEST_FILE)) return reject('manifest', `"exclude" leaves out ${MANIFEST_FILE} itself; the version must hold it`);
  const data = readFileSync(archive);
  return ok({ hash: createHash('sha256').update(data).digest('hex'), data });
}

/** Stores a packed version's bytes in blocks, once per hash. */
export async function storeVersion(ctx: AppContext, hash: string, data: Buffer): Promise<StoredVersion> {
  const blocks: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += VERSION_BLOCK_BYTES) blocks.push(data.subarray(at, at + VERSION_BLOCK_BYTES));
  const added = await ctx.store.submissions().putVersion(hash, blocks, new Date().toISOString());
  return { hash, bytes: data.length, added };
}

/**
 * Writes version `hash` from the database into the new file `file`, a block at a time, and checks its
 * sha256 and length: a version that is missing, short or altered is refused and the file removed.
 */
export async function fetchVersion(ctx: AppContext, hash: string, file: string): Promise<Result<number>> {
  const store = ctx.store.submissions();
  const info = await store.versionInfo(hash);
  if (!info) return reject('not-found', `version ${hash.slice(0, 12)} is not stored in this database`);
  const h = createHash('sha256');
  let bytes = 0;
  const fd = openSync(file, 'wx', 0o600);
  try {
    for (let seq = 0; seq < info.blocks; seq++) {
      const block = await store.versionBlock(hash, seq);
      if (!block) return failed(file, `version ${hash.slice(0, 12)} lacks its block ${seq} of ${info.blocks}`);
      h.update(block);
      bytes += block.length;
      for (let at = 0; at < block.length; ) at += writeSync(fd, block, at);
    }
  } finally {
    closeSync(fd);
  }
  const got = h.digest('hex');
  if (got !== hash || bytes !== info.bytes) return failed(file, `version ${hash.slice(0, 12)} as stored does not match its hash (it hashes to ${got.slice(0, 12)}, ${bytes} bytes): refused`);
  return ok(bytes);
}

function failed(file: string, why: string): Result<never> {
  rmSync(file, { force: true });
  return reject('corrupt', why);
}
