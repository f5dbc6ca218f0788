/**
 * The untimed warm-up, before a bot's first timed `solve` of a puzzle class on a connection (and so again
 * after every restart, which is a new connection), so the first scramble does not pay for start-up:
 * - a bot that asked for it (capability `prepare: true`) gets a `prepare` and answers `ready` (it builds
 *   tables, loads files); version-1 bots that never declared it are never sent one;
 * - when the match asks for it (on by default, `--no-warm-up` turns it off), any bot then solves one
 *   throwaway scramble of the class, untimed and never recorded, so lazy loading, JIT compilation and cold
 *   caches are paid there. The throwaway is drawn from a seed made of the class, so every bot of every match
 *   gets the same one, and it is never the scramble about to be played.
 */
import { createRng } from '../core/rng.ts';
import type { PuzzleKind, PuzzleState } from '../core/types.ts';
import type { Verdict } from '../core/verdict.ts';
import type { BotLink, Clock, LinkEvent } from '../protocol/link.ts';
import { parseBotMessage } from '../protocol/schema.ts';
import { puzzleOf } from '../puzzles/index.ts';
import { newRequestId, solveOne } from './solve-one.ts';

/** A warm-up's own limit: generous, since it is untimed for scoring and happens once per class and start. */
export const PREPARE_TIME_LIMIT_MS = 60_000;

/** How a warm-up ended when it did not end in `ready`: the verdict the pending scramble gets. */
export interface PrepareFailure {
  readonly verdict: Extract<Verdict, 'timeout' | 'crash' | 'protocol' | 'memory'>;
  readonly error: string;
  /** The link cannot be trusted any more: the caller closes it and starts the bot afresh. */
  readonly linkBroken: boolean;
  readonly wallMs: number;
}

/** One warm-up request. */
export interface PrepareJob {
  readonly requestId: string;
  readonly kind: PuzzleKind;
  readonly puzzleClass: string;
  readonly timeLimitMs: number;
}

/**
 * Sends `prepare` and waits for the matching `ready`. Resolves to null when the bot is ready, a failure
 * otherwise, or undefined when `signal` aborts first. Never throws for anything a bot does.
 */
export function prepareOne(link: BotLink, job: PrepareJob, clock: Clock, signal?: AbortSignal): Promise<PrepareFailure | null | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const t0 = clock.now();
    const finish = (value: PrepareFailure | null | undefined, cancel: boolean): void => {
      if (done) return;
      done = true;
      unsubscribe();
      cancelTimer();
      signal?.removeEventListener('abort', onAbort);
      if (cancel && !link.closed) link.send({ type: 'cancel', id: job.requestId });
      resolve(value);
    };
    const fail = (verdict: PrepareFailure['verdict'], error: string, linkBroken: boolean, cancel: boolean): void =>
      finish({ verdict, error, linkBroken, wallMs: clock.now() - t0 }, cancel);
    const onEvent = (e: LinkEvent): void => {
      if (e.type === 'closed') return fail('crash', e.reason, true, false);
      // A protocol violation ends the connection (the transport has closed it): the bot starts afresh.
      if (e.type === 'malformed') return fail('protocol', e.reason, true, true);
      const m = e.message;
      if (m.type === 'hello') return fail('protocol', 'unexpected hello after the handshake', true, true);
      if (m.id !== job.requestId) return fail('protocol', `${m.type} for an unknown request id`, true, true);
      if (m.type === 'ready') return finish(null, false);
      fail('protocol', `${m.type} is not an answer to prepare (expected ready)`, true, true);
    };
    const onAbort = (): void => finish(undefined, true);
    const unsubscribe = link.onEvent(onEvent);
    const cancelTimer = clock.setTimer(job.timeLimitMs, () =>
      fail('timeout', `not ready within ${job.timeLimitMs} ms of prepare`, true, true),
    );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (link.closed) return fail('crash', 'connection closed before the prepare', true, false);
    link.send({ type: 'prepare', id: job.requestId, kind: job.kind, puzzleClass: job.puzzleClass, timeLimitMs: job.timeLimitMs });
  });
}

const refereeWarm = new Set<string>();

/**
 * The referee's own first-call costs (compiling the answer's schema validation and the kind's move replayer,
 * a few milliseconds) are paid once per process and kind here, before any timed solve, so they are not
 * charged to the first bot that plays that kind. Validates an empty final answer on the scramble itself.
 */
export function warmRefereeFor(state: PuzzleState): void {
  if (refereeWarm.has(state.kind)) return;
  refereeWarm.add(state.kind);
  const puzzle = puzzleOf(state);
  parseBotMessage(JSON.stringify({ type: 'moves', id: 'warm-up', moves: puzzle.moves.empty, final: true, info: { computeMs: 0 } }));
  const replayer = puzzle.replayer(state);
  replayer.push(puzzle.moves.empty);
  replayer.finish();
}

/**
 * A throwaway state of the class of `state`, other than `state`: the same for every bot and match (seeded by
 * the class). Undefined when the kind cannot draw one for it (a class too small to scramble).
 */
export function warmUpScramble(state: PuzzleState): PuzzleState | undefined {
  const puzzle = puzzleOf(state);
  const spec = puzzle.normalizeSpec(puzzle.specOf(state));
  if (!spec.ok) return undefined;
  const rng = createRng(`warm-up ${puzzle.className(state)}`);
  const same = JSON.stringify(state);
  for (let i = 0; i < 8; i++) {
    const s = puzzle.scramble(spec.value, rng);
    if (JSON.stringify(s) !== same) return s;
  }
  return undefined;
}

/** The untimed warm-up solve a match asks for: its limits. */
export interface WarmUpSolve {
  /** Generous ({@link warmUpLimitMs}): it is untimed for scoring. */
  readonly timeLimitMs: number;
  readonly maxMoves: number;
}

/**
 * A warm-up solve's limit: as long as the bot may take to start (the warm-up is part of starting it: twice
 * the time limit, at least 10 s, see match-config.ts's startTimeoutMs), or the time limit when that is longer.
 * Not the prepare's minute: a bot that never answers would cost that much at every class it meets.
 */
export function warmUpLimitMs(limits: { readonly timeLimitMs: number; readonly startTimeoutMs: number }): number {
  return Math.max(limits.startTimeoutMs, limits.timeLimitMs);
}

/**
 * Solves a throwaway scramble like `state`, untimed; nothing of it is recorded. Resolves to null when the
 * bot may go on (whatever its answer: a wrong or declined warm-up costs nothing), a failure when the link
 * broke (crash, timeout, protocol, memory), or undefined when `signal` aborts first.
 */
export async function warmUpSolve(link: BotLink, state: PuzzleState, job: WarmUpSolve, clock: Clock, signal?: AbortSignal): Promise<PrepareFailure | null | undefined> {
  const throwaway = warmUpScramble(state);
  if (!throwaway) return null;
  const out = await solveOne(link, { state: throwaway, timeLimitMs: job.timeLimitMs, maxMoves: job.maxMoves }, clock, signal);
  if (out === undefined) return undefined;
  if (!out.linkBroken) return null;
  const verdict = out.verdict === 'timeout' || out.verdict === 'protocol' || out.verdict === 'memory' ? out.verdict : 'crash';
  return { verdict, error: `the untimed warm-up solve of a throwaway scramble: ${out.error ?? out.verdict}`, linkBroken: true, wallMs: out.wallMs };
}

/**
 * Remembers which classes each connection has been warmed up for, so each gets exactly one `prepare` and one
 * warm-up solve per class: connections are keys of a WeakMap, so a closed and dropped link takes its record
 * with it. A class whose warm-up solve broke the connection is not warmed up by solving again (on any later
 * connection of this bot): a bot that cannot do it loses one scramble to it, not every one.
 */
export class WarmUps {
  private readonly prepared = new WeakMap<BotLink, Set<string>>();
  private readonly solved = new WeakMap<BotLink, Set<string>>();
  private readonly failedSolves = new Set<string>();

  /**
   * Warms `link` up for the class of `scramble`: a `prepare` unless it already had one or never asked for
   * it, then, when `solve` is given, one untimed throwaway solve unless it already had one. Resolves to
   * null when the bot may now be sent the timed solve, a failure to record for the scramble, or undefined
   * when the match is stopping.
   */
  async ensure(
    link: BotLink,
    scramble: { readonly state: PuzzleState; readonly puzzleClass: string },
    clock: Clock,
    signal?: AbortSignal,
    timeLimitMs = PREPARE_TIME_LIMIT_MS,
    solve?: WarmUpSolve,
  ): Promise<PrepareFailure | null | undefined> {
    const kind = scramble.state.kind;
    const cls = scramble.puzzleClass;
    if (link.hello.capabilities.some((c) => c.kind === kind && c.prepare === true)) {
      const classes = classesOf(this.prepared, link);
      if (!classes.has(cls)) {
        const out = await prepareOne(link, { requestId: newRequestId(), kind, puzzleClass: cls, timeLimitMs }, clock, signal);
        if (out !== null) return out;
        classes.add(cls);
      }
    }
    if (!solve || this.failedSolves.has(cls)) return null;
    const classes = classesOf(this.solved, link);
    if (classes.has(cls)) return null;
    const out = await warmUpSolve(link, scramble.state, solve, clock, signal);
    if (out === null) classes.add(cls);
    if (out) this.failedSolves.add(cls);
    return out;
  }

  /** Whether {@link ensure} with the same `link`, class and `solve` has nothing left to do. */
  done(link: BotLink, kind: string, puzzleClass: string, solve: boolean): boolean {
    if (link.hello.capabilities.some((c) => c.kind === kind && c.prepare === true) && !this.prepared.get(link)?.has(puzzleClass)) return false;
    return !solve || this.failedSolves.has(puzzleClass) || this.solved.get(link)?.has(puzzleClass) === true;
  }
}

function classesOf(map: WeakMap<BotLink, Set<string>>, link: BotLink): Set<string> {
  let classes = map.get(link);
  if (!classes) map.set(link, (classes = new Set()));
  return classes;
}
