/**
 * The threads a bot declares it solves with: the `threads` of the `arena-bot.json` at the top of its folder
 * (a submitted bot's manifest, or one a registered bot's folder holds). Read before the bot starts, since
 * its cores are fixed when it is spawned. Built-in bots and remote bots declare none: one thread.
 */
import type { Result } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';
import { readFolderManifest } from '../../intake/bot-folder.ts';

/**
 * The threads bot `name` declares in the manifest of `folder` (1 when it has none, or no folder), or why the
 * manifest cannot be read. For a registered bot the folder is its snapshot: what it plays says what it declares.
 */
export function declaredThreads(name: string, folder: string | undefined): Result<number> {
  if (folder === undefined) return ok(1);
  const manifest = readFolderManifest(folder);
  if (!manifest.ok) return reject(manifest.code, `bot ${name}: ${manifest.reason}`);
  return ok(manifest.value?.threads ?? 1);
}
