/**
 * `arena submit DIR`'s packing: the folder's manifest is read (so a folder without a valid one is refused
 * here, before anything is uploaded, and its `exclude` patterns are known), then the folder is packed into
 * a canonical .tar.gz in a new temporary folder by src/intake's `packFolder`, under the same caps the
 * server unpacks with.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Result } from '../../core/types.ts';
import { ok } from '../../core/types.ts';
import { readBotFolder } from '../../intake/bot-folder.ts';
import { INTAKE_LIMITS } from '../../intake/limits.ts';
import { packFolder } from '../../intake/pack.ts';

/** The largest archive the arena accepts, in bytes (the intake's cap; the upload doors cut off beyond it). */
export const ARCHIVE_MAX_BYTES = INTAKE_LIMITS.archiveBytes;

/** A packed bot, ready to upload; `discard` removes the archive and its folder. */
export interface PackedBot {
  readonly archive: string;
  readonly bytes: number;
  readonly files: number;
  /** The name its manifest gives (`astar` or `alice/astar`). */
  readonly name: string;
  discard(): void;
}

/** Packs the bot in `folder` (its manifest at the top, or in its only sub-folder) to a temporary .tar.gz. */
export async function packBot(folder: string): Promise<Result<PackedBot>> {
  const bot = readBotFolder(folder);
  if (!bot.ok) return bot;
  const dir = mkdtempSync(join(tmpdir(), 'arena-submit-'));
  const discard = () => rmSync(dir, { recursive: true, force: true });
  const archive = join(dir, `${basename(bot.value.manifest.bot)}.tar.gz`);
  const packed = await packFolder(bot.value.folder, archive, { exclude: bot.value.manifest.exclude });
  if (!packed.ok) {
    discard();
    return packed;
  }
  const files = packed.value.paths.filter((p) => !p.endsWith('/')).length;
  return ok({ archive, bytes: packed.value.archiveBytes, files, name: bot.value.manifest.name, discard });
}
