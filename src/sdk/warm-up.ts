/**
 * A bot's own warm-up, for its `prepare` callback: solve a throwaway puzzle of the class being prepared,
 * so the first timed solve finds its hot code compiled by the JIT, its lazy modules loaded and its caches
 * filled. The referee's untimed warm-up solve does the same from outside for every bot when the match asks
 * for it; a bot that warms itself in `prepare` is warm either way.
 */
import { createRng } from '../core/rng.ts';
import type { PuzzleState, ScrambleSpec, WireMoves } from '../core/types.ts';
import { getPuzzle } from '../puzzles/index.ts';
import type { BotDefinition, PrepareRequest } from './types.ts';

/** How a bot warms itself up. */
export interface SelfWarmUpOptions {
  /**
   * Largest size (the capability's measure: a side, discs, n) worth a warm-up solve: a class beyond it is
   * not solved in prepare (its solves take long enough that a cold start is a small part of them, and a
   * warm-up solve could overrun the prepare limit).
   */
  readonly maxSize?: number;
  /** Scramble by a random walk of this many moves instead of drawing a uniform state (keeps a search short). */
  readonly walk?: number;
  /** The bot's own throwaway for a class (for bots that take only some states of it); undefined: none. */
  readonly puzzle?: (puzzleClass: string) => PuzzleState | undefined;
}

/**
 * The spec of a class name ("sliding 4x4", "hanoi 12 random-goal", "swaps 10x10", "warehouse 16"), read with
 * the kind's own size options; undefined when the text is not a class of a known kind.
 */
export function specOfClass(puzzleClass: string): ScrambleSpec<string> | undefined {
  const [kind, size, ...rest] = puzzleClass.trim().split(/\s+/);
  const found = getPuzzle(kind);
  if (!found.ok || size === undefined) return undefined;
  const puzzle = found.value;
  const spec: { -readonly [K in keyof ScrambleSpec<string>]: ScrambleSpec<string>[K] } = { kind: puzzle.kind };
  const rc = /^(\d+)x(\d+)$/.exec(size);
  // A kind sized by rows and columns names its classes "RxC"; the others by one number.
  if ('rows' in puzzle.sizeOptions) {
    if (!rc) return undefined;
    spec.rows = Number(rc[1]);
    spec.cols = Number(rc[2]);
  } else if (/^\d+$/.test(size)) {
    if ('discs' in puzzle.sizeOptions) spec.discs = Number(size);
    else spec.size = Number(size);
  } else {
    return undefined;
  }
  if (rest.includes('random-goal')) spec.randomGoal = true;
  const norm = puzzle.normalizeSpec(spec);
  return norm.ok ? norm.value : undefined;
}

/** A class name's kind, spec and size (the capability's measure), or undefined when it is not a class. */
function readClass(puzzleClass: string) {
  const spec = specOfClass(puzzleClass);
  const found = spec && getPuzzle(spec.kind);
  if (!spec || !found?.ok) return undefined;
  return { spec, puzzle: found.value, size: found.value.sizeMeasure(found.value.goal(spec)) };
}

/**
 * A throwaway puzzle of `puzzleClass` (seeded by the class: the same every time), or undefined when the class
 * is unknown, bigger than `maxSize`, or its scrambles would not be of that class.
 */
export function throwawayPuzzle(puzzleClass: string, opts: SelfWarmUpOptions = {}): PuzzleState | undefined {
  if (opts.puzzle) return opts.puzzle(puzzleClass);
  const c = readClass(puzzleClass);
  if (!c || (opts.maxSize !== undefined && c.size > opts.maxSize)) return undefined;
  const rng = createRng(`self warm-up ${puzzleClass}`);
  const state = opts.walk !== undefined ? c.puzzle.walk(c.spec, opts.walk, rng) : c.puzzle.scramble(c.spec, rng);
  return c.puzzle.className(state) === puzzleClass ? state : undefined;
}

/**
 * A {@link BotDefinition.wireWarmUp} rule: the SDK's wire warm-up before classes up to `maxSize` (the
 * capability's measure, as in {@link SelfWarmUpOptions.maxSize}), where a bot's solves take microseconds and
 * a cold per-message path would be a large part of them; none before bigger ones, whose solves take
 * milliseconds and more. A class it cannot read gets the warm-up, as by default.
 */
export function wireWarmUpWithin(maxSize: number): (puzzleClass: string) => boolean {
  return (puzzleClass) => (readClass(puzzleClass)?.size ?? 0) <= maxSize;
}

/** Reads an answer to its end (chunks are generated lazily, so producing them is part of the work). */
async function drain(moves: WireMoves | Iterable<WireMoves> | AsyncIterable<WireMoves>): Promise<void> {
  if (typeof moves === 'string' || Array.isArray(moves)) return;
  if (Symbol.asyncIterator in moves) {
    for await (const chunk of moves) void chunk;
  } else {
    for (const chunk of moves) void chunk;
  }
}

/**
 * A `prepare` callback that solves one throwaway puzzle of the class with the bot's own `solve`, within the
 * prepare's time limit, and throws the answer away. A class it cannot draw or that is over `maxSize` is
 * skipped; the SDK answers `ready` either way.
 */
export function warmUpBySolving(solve: BotDefinition['solve'], opts: SelfWarmUpOptions = {}): (request: PrepareRequest) => Promise<void> {
  return async (request) => {
    const puzzle = throwawayPuzzle(request.puzzleClass, opts);
    if (!puzzle || request.signal.aborted) return;
    // Half the prepare's limit: the bot must still answer `ready` in time if the warm-up solve is slow.
    const timeLimitMs = request.timeLimitMs / 2;
    const answer = await solve(puzzle, { deadline: Date.now() + timeLimitMs, timeLimitMs, maxMoves: Number.MAX_SAFE_INTEGER, signal: request.signal });
    if ('moves' in answer) await drain(answer.moves);
  };
}
