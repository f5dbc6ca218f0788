import type { WireMoves } from '../core/types.ts';

/** Names of the two move forms; the store keeps the name beside the encoded text. */
export type MoveFormName = 'text' | 'pairs';

/**
 * How one kind's moves travel and rest. The protocol carries moves in one of two forms: a string of
 * notation (sliding, Hanoi, warehouse), whose chunks concatenate verbatim, or an array of integer pairs
 * (swaps), whose chunks concatenate as arrays. Each Puzzle names its form, so the referee, the SDK and the
 * store handle moves without knowing which kind they belong to.
 */
export interface MoveForm {
  readonly name: MoveFormName;
  /** The answer with no moves (the final chunk of a streamed answer). */
  readonly empty: WireMoves;
  /** The answer as stored text: notation verbatim (one byte per letter), pairs as JSON. */
  encode(moves: WireMoves): string;
  /** Inverse of {@link encode}, for text this store wrote itself. */
  decode(text: string): WireMoves;
}

type Pairs = ReadonlyArray<readonly [number, number]>;

/** Moves as one string of notation. */
export const textMoves: MoveForm = {
  name: 'text',
  empty: '',
  encode: (moves) => moves as string,
  decode: (text) => text,
};

/** Moves as an array of integer pairs. */
export const pairMoves: MoveForm = {
  name: 'pairs',
  empty: [],
  encode: (moves) => JSON.stringify(moves),
  decode: (text) => JSON.parse(text) as Pairs,
};

/** Every move form by its stored name. */
export const MOVE_FORMS: { readonly [N in MoveFormName]: MoveForm } = { text: textMoves, pairs: pairMoves };

/**
 * The form of a value already in hand. Used where moves arrive without their kind (a stored result, a
 * chunk of a bot's answer); the protocol schema has already checked the value is one of the two forms.
 */
export function moveFormOf(moves: WireMoves): MoveForm {
  return typeof moves === 'string' ? textMoves : pairMoves;
}
