import { existsSync, readFileSync, statSync } from 'node:fs';
import type { PuzzleState } from '../core/types.ts';
import { parseState } from '../puzzles/index.ts';
import { CliError } from './errors.ts';

/** Reads an argument that is either inline text or a path to a file holding it. */
export function textOrFile(arg: string): string {
  if (existsSync(arg) && statSync(arg).isFile()) return readFileSync(arg, 'utf8');
  return arg;
}

/**
 * Parses scrambles from JSON Lines (one canonical state per line; blank lines and `#` comments skipped) or a
 * single JSON object / array. Every state is validated; the first bad one stops with its line number.
 */
export function parseScrambles(text: string, origin: string): PuzzleState[] {
  const trimmed = text.trim();
  if (trimmed === '') throw new CliError(`${origin}: no scrambles found`);
  let values: { value: unknown; where: string }[];
  if (trimmed.startsWith('[')) {
    values = parseJson(trimmed, origin).map((value: unknown, i: number) => ({ value, where: `${origin} item ${i + 1}` }));
  } else {
    values = [];
    trimmed.split(/\r?\n/).forEach((line, i) => {
      const l = line.trim();
      if (l === '' || l.startsWith('#')) return;
      values.push({ value: parseJson(l, `${origin} line ${i + 1}`), where: `${origin} line ${i + 1}` });
    });
  }
  return values.map(({ value, where }) => {
    const r = parseState(value);
    if (!r.ok) throw new CliError(`${where}: ${r.reason}`);
    return r.value;
  });
}

function parseJson(text: string, where: string): any {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(`${where}: not valid JSON (${(e as Error).message})`);
  }
}
