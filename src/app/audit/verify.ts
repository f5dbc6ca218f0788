import type { Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { puzzleOf } from '../../puzzles/index.ts';
import { parseScrambles, textOrFile } from '../matches/inputs.ts';

/** The verdict of replaying one solution. */
export interface VerifyReport {
  readonly verdict: 'solved' | 'invalid';
  readonly moves: number;
  readonly index?: number;
  readonly reason?: string;
  readonly optimal?: number;
  readonly lowerBound?: number;
}

/**
 * Replays moves on a scramble. Both arguments are inline text or a file path. An unreadable or invalid
 * input is a rejection; an illegal move is a report with verdict `invalid`.
 */
export function verifySolution(scramble: string, moves: string): Result<VerifyReport> {
  const scrambleText = textOrFile(scramble);
  if (!scrambleText.ok) return scrambleText;
  const states = parseScrambles(scrambleText.value, 'scramble');
  if (!states.ok) return states;
  if (states.value.length !== 1) return reject('bad-scramble', `scramble: expected one state, found ${states.value.length}`);
  const state = states.value[0];
  const p = puzzleOf(state);
  const movesText = textOrFile(moves);
  if (!movesText.ok) return movesText;
  const parsed = p.parseMoves(movesText.value);
  if (!parsed.ok) return reject(parsed.code, `moves: ${parsed.reason}`);
  const out = p.replay(state, parsed.value);
  const b = p.bound(state);
  return {
    ok: true,
    value: {
      verdict: out.verdict,
      moves: out.moves,
      ...(out.verdict === 'invalid' && out.index !== undefined ? { index: out.index } : {}),
      ...(out.verdict === 'invalid' ? { reason: out.reason } : {}),
      ...(b.optimal !== undefined ? { optimal: b.optimal } : { lowerBound: b.lowerBound }),
    },
  };
}
