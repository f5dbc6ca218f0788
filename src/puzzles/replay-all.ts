import type { ReplayOutcome, WireMoves } from '../core/types.ts';
import type { Replayer } from './puzzle.ts';

/** Replays a whole solution on a fresh replayer: every kind's `replay`, over its incremental validator. */
export function replayAll<S extends { readonly kind: string }>(replayer: Replayer<S>, moves: WireMoves): ReplayOutcome {
  replayer.push(moves);
  return replayer.finish();
}
