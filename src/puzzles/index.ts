import type { PuzzleKind, PuzzleState, Result } from '../core/types.ts';
import { PUZZLE_KINDS } from '../core/puzzle-kinds.ts';
import { reject } from '../core/types.ts';
import type { Puzzle } from './puzzle.ts';
import { sliding } from './sliding/index.ts';
import { hanoi } from './hanoi/index.ts';
import { swaps } from './swaps/index.ts';
import { warehouse } from './warehouse/index.ts';

/**
 * The built-in kinds, by name: one line per kind folder. Typed against PUZZLE_KINDS (src/core), so the
 * list of names and the registry cannot drift apart.
 */
export const puzzles: { readonly [K in PuzzleKind]: Puzzle } = Object.freeze({
  sliding: sliding as Puzzle,
  hanoi: hanoi as Puzzle,
  swaps: swaps as Puzzle,
  warehouse: warehouse as Puzzle,
});

/** The kind a match plays when none is named. */
export const DEFAULT_KIND: PuzzleKind = PUZZLE_KINDS[0];

/**
 * Kinds added at run time by {@link registerPuzzle}. Kept apart from the frozen built-ins, which no
 * registration can replace.
 */
const added = new Map<string, Puzzle>();

/**
 * Adds a puzzle kind beside the built-ins until the returned function removes it. It exists so a test can
 * define a tiny kind of its own and run it through the referee, the store and the SDK exactly like a
 * built-in one: every layer finds kinds by name through {@link getPuzzle} / {@link puzzleOf}, so a kind
 * registered here needs nothing else. A name already taken is a programmer error.
 *
 * The state type of an added kind is not in the PuzzleState union (that union is the public protocol
 * vocabulary); its states travel typed as PuzzleState, and only the kind's own Puzzle reads their fields.
 */
export function registerPuzzle<S extends { readonly kind: string }>(puzzle: Puzzle<S>): () => void {
  const kind: string = puzzle.kind;
  if (Object.hasOwn(puzzles, kind) || added.has(kind)) throw new Error(`puzzle kind ${JSON.stringify(kind)} is already registered`);
  const entry = puzzle as unknown as Puzzle;
  added.set(kind, entry);
  return () => {
    if (added.get(kind) === entry) added.delete(kind);
  };
}

/** Every kind known now: the built-ins in PUZZLE_KINDS order, then any registered ones. */
export function allPuzzles(): Puzzle[] {
  return [...PUZZLE_KINDS.map((k) => puzzles[k]), ...added.values()];
}

/** The names of {@link allPuzzles}. */
export function puzzleKinds(): string[] {
  return allPuzzles().map((p) => p.kind);
}

/** Looks up a puzzle kind by (untrusted) name. */
export function getPuzzle(kind: unknown): Result<Puzzle> {
  if (typeof kind === 'string') {
    if (Object.hasOwn(puzzles, kind)) return { ok: true, value: puzzles[kind as PuzzleKind] };
    const p = added.get(kind);
    if (p) return { ok: true, value: p };
  }
  return reject('unknown-kind', `unknown puzzle kind ${JSON.stringify(kind)}; expected one of ${puzzleKinds().join(', ')}`);
}

/**
 * The Puzzle of a state that was already parsed or generated (so its kind is known). An unknown kind
 * here is a programmer error, not bad input: untrusted JSON goes through {@link parseState}.
 */
export function puzzleOf(state: { readonly kind: string }): Puzzle {
  const p = getPuzzle(state.kind);
  if (!p.ok) throw new Error(p.reason);
  return p.value;
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

export { PUZZLE_KINDS };
export type { Puzzle, Replayer, SizeOption } from './puzzle.ts';
export type { MoveForm } from './move-form.ts';
