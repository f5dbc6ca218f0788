/**
 * `arena bot clear-cache <name>`: empties a bot's persistent cache (what it wrote to $ARENA_CACHE, kept
 * across games and matches and not part of its version). Any well-formed name may be cleared, registered
 * or not: a removed bot's cache is still on disk until it is cleared.
 */
import type { Result } from '../../core/types.ts';
import { ok } from '../../core/types.ts';
import { formatSize } from '../../transport/process/bot-limits.ts';
import { clearCache } from '../../sandbox/limits/writable-space.ts';
import { checkBotName } from './bot-names.ts';

/** Empties bot `name`'s cache; the folder it was in and how much it held (bytes, and as "1.5 MiB"). */
export function clearBotCache(name: string): Result<{ folder: string; bytes: number; size: string }> {
  const checked = checkBotName(name);
  if (!checked.ok) return checked;
  const cleared = clearCache(name);
  return cleared.ok ? ok({ ...cleared.value, size: formatSize(cleared.value.bytes) }) : cleared;
}
