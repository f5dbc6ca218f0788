/**
 * Reading what people hand the arena: inline text or a file, and scramble lists (JSON Lines or a JSON
 * array of canonical states). Every problem is a rejection naming where it is (file, line).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { PuzzleState, Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { parseState } from '../../puzzles/index.ts';

/** An argument that is either inline text or a path to a file holding it (a file wins when one exists). */
export function textOrFile(arg: string): Result<string> {
  if (existsSync(arg) && statSync(arg).isFile()) return readText(arg);
  return { ok: true, value: arg };
}

/** The text of a file; a missing file says "no such file". */
export function readText(file: string): Result<string> {
  try {
    return { ok: true, value: readFileSync(file, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return reject('no-file', `${file}: no such file`);
    if (code === 'EISDIR') return reject('no-file', `${file}: is a directory, not a file`);
    return reject('unreadable', `${file}: cannot read (${code ?? (e as Error).message})`);
  }
}

/** Reads and parses a scramble file (see {@link parseScrambles}). */
export function readScrambleFile(file: string): Result<PuzzleState[]> {
  const text = readText(file);
  return text.ok ? parseScrambles(text.value, file) : text;
}

/**
 * Parses scrambles from JSON Lines (one canonical state per line; blank lines and `#` comments skipped) or a
 * single JSON array. Every state is validated; the first bad one is the rejection, with its line number.
 */
export function parseScrambles(text: string, origin: string): Result<PuzzleState[]> {
  const trimmed = text.trim();
  if (trimmed === '') return reject('no-scrambles', `${origin}: no scrambles found`);
  const values: Array<{ value: unknown; where: string }> = [];
  if (trimmed.startsWith('[')) {
    const all = parseJson(trimmed, origin);
    if (!all.ok) return all;
    if (!Array.isArray(all.value)) return reject('bad-json', `${origin}: expected a JSON array of states`);
    all.value.forEach((value: unknown, i: number) => values.push({ value, where: `${origin} item ${i + 1}` }));
  } else {
    const lines = trimmed.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i].trim();
      if (l === '' || l.startsWith('#')) continue;
      const where = `${origin} line ${i + 1}`;
      const v = parseJson(l, where);
      if (!v.ok) return v;
      values.push({ value: v.value, where });
    }
  }
  const states: PuzzleState[] = [];
  for (const { value, where } of values) {
    const r = parseState(value);
    if (!r.ok) return reject(r.code, `${where}: ${r.reason}`);
    states.push(r.value);
  }
  return { ok: true, value: states };
}

function parseJson(text: string, where: string): Result<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return reject('bad-json', `${where}: not valid JSON (${(e as Error).message})`);
  }
}
