/**
 * Scrambles of huge matches, a batch at a time. A match generated from a spec stores its first batch with
 * the match and each further batch when play reaches it, so the referee's memory holds about one batch of
 * states whatever `count × size` is, and a resumed match regenerates exactly the scrambles it lacks.
 */
import { GENERATOR_VERSION } from '../../core/rng.ts';
import type { PuzzleState, Result } from '../../core/types.ts';
import { reject } from '../../core/types.ts';
import { MAX_REFEREE_PAYLOAD } from '../../protocol/messages.ts';
import { puzzleOf } from '../../puzzles/index.ts';
import type { MatchRecord, NewScramble, ScrambleRecord, Store } from '../../store/types.ts';
import type { MatchConfig } from '../match-config.ts';
import { scrambleStream } from './scrambles.ts';

/** JSON bytes of scramble states a match keeps in memory at once (one batch); sizes batches. */
export const SCRAMBLE_BATCH_BYTES = 16 * 1024 * 1024;
/** Most scrambles in one batch, however small they are (one store transaction each). */
export const MAX_BATCH = 1000;
/**
 * The largest scramble a match accepts: its `solve` message must fit what every bot is required to read
 * (MAX_REFEREE_PAYLOAD), less room for the message's other fields.
 */
export const MAX_SCRAMBLE_BYTES = MAX_REFEREE_PAYLOAD - 4096;

/** The stored form of scramble `index`. */
export function newScramble(state: PuzzleState, index: number): NewScramble {
  const p = puzzleOf(state);
  return { index, state, puzzleClass: p.className(state), bound: p.bound(state) };
}

/** JSON size of one state, as stored and as sent. */
export function scrambleBytes(state: PuzzleState): number {
  // States are ASCII JSON: one byte per character.
  return JSON.stringify(state).length;
}

/** Scrambles per batch for scrambles of `bytes` each. */
export function batchSize(bytes: number, budget = SCRAMBLE_BATCH_BYTES): number {
  return Math.max(1, Math.min(MAX_BATCH, Math.floor(budget / Math.max(1, bytes))));
}

/** Refuses a scramble too big to send to any bot, naming its size and the limit. */
export function checkScrambleSize(state: PuzzleState, limit = MAX_SCRAMBLE_BYTES): Result<number> {
  const bytes = scrambleBytes(state);
  if (bytes > limit) {
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
    return reject('too-big', `one ${puzzleOf(state).className(state)} scramble is ${mb(bytes)} of JSON; a scramble may be at most ${mb(limit)} (what a bot must accept in one message)`);
  }
  return { ok: true, value: bytes };
}

/** The first batch of a generated match and the batch size, or why the spec is refused. */
export function firstBatch(config: MatchConfig, budget = SCRAMBLE_BATCH_BYTES): Result<{ states: PuzzleState[]; batch: number }> {
  if (!config.spec) return reject('no-spec', 'a generated match needs a spec');
  const next = scrambleStream(config.spec, config.seed, config.walk);
  if (!next.ok) return next;
  const first = next.value();
  const size = checkScrambleSize(first);
  if (!size.ok) return size;
  const batch = batchSize(size.value, budget);
  const states = [first];
  while (states.length < Math.min(batch, config.count)) states.push(next.value());
  return { ok: true, value: { states, batch } };
}

/**
 * The scrambles of a match page by page, in index order, storing each missing batch of a generated match
 * (one transaction) before handing it out. Ends early, with `stopped` saying why, when scrambles are
 * missing that cannot be made (a file match, or scrambles of another generator version).
 */
export async function* scramblePages(
  match: MatchRecord,
  config: MatchConfig,
  store: Store,
  budget: number,
  mark: (s: NewScramble) => NewScramble,
  stopped: (reason: string) => void,
): AsyncGenerator<ScrambleRecord[]> {
  const [probe] = await store.listScrambles(match.id, { from: 0, limit: 1 });
  const batch = probe ? batchSize(scrambleBytes(probe.state), budget) : 1;
  for (let from = 0; from < config.count; from += batch) {
    const want = Math.min(batch, config.count - from);
    let page = await store.listScrambles(match.id, { from, limit: want });
    const have = page.length;
    if (have > 0 && page[have - 1].index !== from + have - 1) {
      return stopped(`match ${match.id} has a gap in its scrambles before index ${page[have - 1].index}`);
    }
    if (have < want) {
      const made = await extend(match, config, store, from + have, want - have, mark);
      if (!made.ok) return stopped(made.reason);
      page = [...page, ...made.value];
    }
    yield page;
  }
}

async function extend(
  match: MatchRecord,
  config: MatchConfig,
  store: Store,
  from: number,
  n: number,
  mark: (s: NewScramble) => NewScramble,
): Promise<Result<ScrambleRecord[]>> {
  if (!config.spec) return reject('missing', `match ${match.id} lacks scrambles from index ${from} and has no spec to make them from`);
  if (match.generatorVersion !== GENERATOR_VERSION) {
    return reject('generator', `match ${match.id} was generated by ${match.generatorVersion}; this referee (${GENERATOR_VERSION}) cannot make its missing scrambles`);
  }
  const next = scrambleStream(config.spec, config.seed, config.walk, from);
  if (!next.ok) return next;
  const batch = Array.from({ length: n }, (_, k) => mark(newScramble(next.value(), from + k)));
  return { ok: true, value: await store.addScrambles(match.id, batch) };
}
