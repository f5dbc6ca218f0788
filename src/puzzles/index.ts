import type { PuzzleKind, PuzzleState, Result } from '../core/types.ts';
import { reject } from '../core/types.ts';
import type { Puzzle } from './puzzle.ts';
import { sliding } from './sliding/index.ts';
import { hanoi } from './hanoi/index.ts';
import { swaps } from './swaps/index.ts';
import { warehouse } from './warehouse/index.ts';

/** Every puzzle kind, by name: the one registry the referee, CLI and bots look kinds up in. */
export const puzzles: { readonly [K in PuzzleKind]: Puzzle } = {
  sliding: sliding as Puzzle,
  hanoi: hanoi as Puzzle,
  swaps: swaps as Puzzle,
  warehouse: warehouse as Puzzle,
};

/** The kind names, in registry order. */
export const PUZZLE_KINDS = Object.keys(puzzles) as PuzzleKind[];

/** Looks up a puzzle kind by (untrusted) name. */
export function getPuzzle(kind: unknown): Result<Puzzle> {
  if (typeof kind === 'string' && Object.hasOwn(puzzles, kind)) return { ok: true, value: puzzles[kind as PuzzleKind] };
  return reject('unknown-kind', `unknown puzzle kind ${JSON.stringify(kind)}; expected one of ${PUZZLE_KINDS.join(', ')}`);
}

/** Parses any canonical state JSON by dispatching on its `kind` field. */
export function parseState(json: unknown): Result<PuzzleState> {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return reject('bad-state', 'a puzzle state must be a JSON object with a "kind" field');
  }
  const p = getPuzzle((json as { kind?: unknown }).kind);
  if (!p.ok) return p;
  return p.value.parse(json);
}

export type { Puzzle, Replayer } from './puzzle.ts';
