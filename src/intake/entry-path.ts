/**
 * The name of one archive entry, checked before anything is written: relative, no `..`, no NUL, control
 * character or backslash, within the length and depth caps. Its key folds case and Unicode normalisation, so two
 * entries that would land on one file on a case-insensitive or normalising file system (`Bot.py` and
 * `bot.py`, `é` composed and decomposed) count as duplicates on every machine.
 */
import type { Result } from '../core/types.ts';
import { ok, reject } from '../core/types.ts';
import type { IntakeLimits } from './limits.ts';

/** A checked entry name. */
export interface EntryPath {
  /** Its components, `.` and empty ones dropped; empty for the archive's top folder itself (`./`). */
  readonly parts: readonly string[];
  /** The duplicate-detection key of each prefix: parts case-folded and NFC-normalised, joined by '/'. */
  readonly keys: readonly string[];
}

/** One component's longest name on Linux file systems, in bytes. */
const NAME_MAX = 255;

/** Checks an entry's name as the archive spells it (folders may end in '/'). */
export function checkEntryPath(raw: string, limits: IntakeLimits): Result<EntryPath> {
  const shown = JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw);
  const refuse = (why: string) => reject('archive', `entry ${shown} ${why}`);
  if (raw.length === 0) return refuse('has an empty name');
  if (raw.includes('\0')) return refuse('has a NUL byte in its name');
  // A newline or escape in a file name breaks logs, build scripts and terminals that print it.
  if (/[\x01-\x1f\x7f]/.test(raw)) return refuse('has a control character in its name');
  if (raw.includes('\\')) return refuse('has a backslash in its name');
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) return refuse('is an absolute path');
  if (Buffer.byteLength(raw) > limits.pathBytes) return refuse(`has a path longer than ${limits.pathBytes} bytes`);
  const parts = raw.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return refuse("has a '..' component");
  if (parts.length > limits.depth + 1) return refuse(`is nested more than ${limits.depth} folders deep`);
  for (const p of parts) if (Buffer.byteLength(p) > NAME_MAX) return refuse(`has a name longer than ${NAME_MAX} bytes`);
  const keys: string[] = [];
  let key = '';
  for (const p of parts) {
    key = key ? `${key}/${foldName(p)}` : foldName(p);
    keys.push(key);
  }
  return ok({ parts, keys });
}

/** Case-folded and NFC-normalised: what a case-insensitive, normalising file system would compare. */
function foldName(name: string): string {
  return name.normalize('NFC').toLowerCase().normalize('NFC');
}
