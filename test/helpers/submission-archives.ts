/**
 * Archives of bot folders for the submission tests: a folder written from a map of files (the manifest
 * from an object), packed by intake's canonical packer, as `arena submit` packs it.
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packFolder } from '../../src/intake/pack.ts';

/** A new temp folder (open to the uids bots run as, when run as root). */
export function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `arena-${prefix}-`));
  chmodSync(dir, 0o755);
  return dir;
}

/** Writes `files` (path → text) under a new folder, with `arena-bot.json` from `manifest`; returns the folder. */
export function botFolder(manifest: Record<string, unknown>, files: Record<string, string> = {}): string {
  const dir = scratch('sub-bot');
  writeFileSync(join(dir, 'arena-bot.json'), JSON.stringify(manifest));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The folder packed into a new .tar.gz; returns its path. */
export async function archiveOf(folder: string): Promise<string> {
  const archive = join(scratch('sub-archive'), 'bot.tar.gz');
  const packed = await packFolder(folder, archive);
  if (!packed.ok) throw new Error(packed.reason);
  return archive;
}

/** A bot folder from `manifest` and `files`, packed. */
export async function botArchive(manifest: Record<string, unknown>, files: Record<string, string> = { 'bot.py': 'print(1)\n' }): Promise<string> {
  return archiveOf(botFolder(manifest, files));
}
