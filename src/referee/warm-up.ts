/**
 * The untimed warm-up: before a bot's first timed `solve` of a puzzle class on a connection, a bot that asked
 * for it (capability `prepare: true`) gets a `prepare` and answers `ready`, so the first scramble does not
 * pay for start-up and lazy tables. A restarted bot is a new connection and is prepared again. Version-1 bots
 * that never declared it are never sent one.
 */
import type { PuzzleKind, PuzzleState } from '../core/types.ts';
import type { Verdict } from '../core/verdict.ts';
import type { BotLink, Clock, LinkEvent } from '../protocol/link.ts';
import { parseBotMessage } from '../protocol/schema.ts';
import { puzzleOf } from '../puzzles/index.ts';
import { newRequestId } from './solve-one.ts';

/** A warm-up's own limit: generous, since it is untimed for scoring and happens once per class and start. */
export const PREPARE_TIME_LIMIT_MS = 60_000;

/** How a warm-up ended when it did not end in `ready`: the verdict the pending scramble gets. */
export interface PrepareFailure {
  readonly verdict: Extract<Verdict, 'timeout' | 'crash' | 'protocol'>;
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
 * Remembers which classes each connection has been prepared for, so each gets exactly one `prepare` per
 * class: connections are keys of a WeakMap, so a closed and dropped link takes its record with it.
 */
export class WarmUps {
  private readonly prepared = new WeakMap<BotLink, Set<string>>();

  /**
   * Prepares `link` for the class of `scramble` unless it already was or never asked to be. Resolves to
   * null when the bot may now be sent the timed solve, a failure to record for the scramble, or undefined
   * when the match is stopping.
   */
  async ensure(
    link: BotLink,
    scramble: { readonly state: PuzzleState; readonly puzzleClass: string },
    clock: Clock,
    signal?: AbortSignal,
    timeLimitMs = PREPARE_TIME_LIMIT_MS,
  ): Promise<PrepareFailure | null | undefined> {
    const kind = scramble.state.kind;
    if (!link.hello.capabilities.some((c) => c.kind === kind && c.prepare === true)) return null;
    let classes = this.prepared.get(link);
    if (!classes) this.prepared.set(link, (classes = new Set()));
    if (classes.has(scramble.puzzleClass)) return null;
    const out = await prepareOne(link, { requestId: newRequestId(), kind, puzzleClass: scramble.puzzleClass, timeLimitMs }, clock, signal);
    if (out === null) classes.add(scramble.puzzleClass);
    return out;
  }
}
