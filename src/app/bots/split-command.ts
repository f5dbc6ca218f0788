import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';

/**
 * Splits a command line into argv like a POSIX shell would for the simple cases: whitespace separates,
 * single quotes are literal, double quotes allow \" and \\, a backslash escapes the next character outside
 * quotes. No expansion of any kind: bots are spawned without a shell. An unterminated quote is a rejection.
 */
export function splitCommand(line: string): Result<string[]> {
  const out: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else cur += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) cur += line[++i];
      else cur += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) out.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (quote) return reject('bad-command', `unterminated ${quote} quote in command: ${line}`);
  if (inWord) out.push(cur);
  return { ok: true, value: out };
}
