import type { Result, WireMoves } from '../../core/types.ts';
import { ok, reject } from '../../core/types.ts';

/**
 * Sliding move notation: one letter per move naming where the BLANK goes: U (row above), D, L, R.
 *
 * - Wire form: a plain string of uppercase `UDLR` only; the replayer rejects anything else, whitespace
 *   included, so a bot's answer has exactly one meaning and move indexes are character indexes.
 * - User text (files, CLI): {@link parseSlidingMoves} also accepts lowercase letters and ignores whitespace
 *   (spaces, tabs, newlines), so a file may wrap long solutions or group moves.
 */

/** Describes one character for an error message: `'X'`, or a code point for invisible characters. */
export function showChar(ch: string): string {
  const c = ch.codePointAt(0) ?? 0;
  if (c > 0x20 && c < 0x7f) return `'${ch}'`;
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Parses user text into the compact wire string; rejects any character other than UDLR/udlr/whitespace. */
export function parseSlidingMoves(text: string): Result<WireMoves> {
  if (typeof text !== 'string') return reject('bad-moves', 'sliding moves must be a string of U, D, L, R');
  const out: string[] = [];
  let line = 1;
  let col = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    col++;
    switch (ch) {
      case 'U': case 'D': case 'L': case 'R': out.push(ch); break;
      case 'u': case 'd': case 'l': case 'r': out.push(ch.toUpperCase()); break;
      case '\n': line++; col = 0; break;
      case ' ': case '\t': case '\r': case '\f': case '\v': break;
      default:
        return reject(
          'bad-moves',
          `line ${line}, column ${col}: unknown move letter ${showChar(ch)}; expected U, D, L or R (where the blank goes)`,
        );
    }
  }
  return ok(out.join(''));
}

/**
 * The compact notation text of wire moves (the wire string itself). An array (another kind's wire form, e.g.
 * a misbehaving bot's reply) is shown as its JSON so it can still be printed; parseMoves rejects that text.
 */
export function formatSlidingMoves(moves: WireMoves): string {
  return typeof moves === 'string' ? moves : JSON.stringify(moves);
}
