import { randomBytes } from 'node:crypto';
import type { PuzzleState } from '../core/types.ts';
import type { BotLink, Clock, LinkEvent } from '../protocol/link.ts';
import type { Capability, MovesMessage } from '../protocol/messages.ts';
import { sizeGap } from '../protocol/capability-size.ts';
import { puzzleOf } from '../puzzles/index.ts';
import { MoveRecorder } from '../puzzles/move-pieces.ts';
import type { ResultRecord } from '../store/types.ts';

/** One request to one bot (solveOne picks its id). */
export interface SolveJob {
  readonly state: PuzzleState;
  readonly timeLimitMs: number;
  readonly maxMoves: number;
}

/**
 * What the referee concluded about one request: the result as it is stored (see ResultRecord for each
 * field), plus whether the link can still be trusted.
 */
export type JobOutcome = Omit<ResultRecord, 'scrambleId' | 'bot'> & {
  /** The link can no longer be trusted (closed, timed out): the caller kills it and restarts the bot. */
  readonly linkBroken: boolean;
};

/** Why a bot's declared capabilities exclude a state, or undefined when they include it. */
export function capabilityGap(caps: readonly Capability[], state: PuzzleState): string | undefined {
  const cap = caps.find((c) => c.kind === state.kind);
  if (!cap) return `bot declared no capability for ${state.kind}`;
  return sizeGap(cap, state);
}

/** Random bytes drawn from the OS at once, 16 per id: one call per 256 solves instead of one per solve. */
const ID_POOL_BYTES = 16 * 256;
let idPool = Buffer.alloc(0);
let idAt = 0;

/**
 * A fresh request id: 128 random bits, so no bot can answer a request before it has seen it. Crypto
 * randomness, not the seeded generator: ids are a security measure and never part of a result.
 */
export function newRequestId(): string {
  if (idAt + 16 > idPool.length) {
    idPool = randomBytes(ID_POOL_BYTES);
    idAt = 0;
  }
  idAt += 16;
  return idPool.toString('base64url', idAt - 16, idAt);
}

/**
 * Sends one `solve` under a fresh unpredictable id, validates every chunk as it arrives, and settles on
 * exactly one verdict. Never throws for anything a bot does. A protocol violation breaks the link (the
 * transport has closed it; the caller starts a fresh bot), so the next request is not charged for it.
 * Resolves to undefined only when `signal` aborts first (the match is stopping: nothing is recorded).
 * `afterResult` runs the moment the bot has been sent its `result` on a link that stays trusted, in the turn
 * its answer arrived: where the player has the next solve ready, it goes out with the result.
 */
export function solveOne(link: BotLink, job: SolveJob, clock: Clock, signal?: AbortSignal, afterResult?: () => void): Promise<JobOutcome | undefined> {
  const requestId = newRequestId();
  return new Promise((resolve) => {
    let done = false;
    // CPU is read before the clock starts and after it stops, so reading /proc is never charged as wall time.
    const cpu0 = link.cpuMs?.();
    const t0 = clock.now();

    const settle = (o: Omit<JobOutcome, 'moves' | 'moveCount' | 'wallMs'> & { wallMs?: number }, notify: boolean) => {
      if (done) return;
      done = true;
      unsubscribe();
      cancelTimer();
      signal?.removeEventListener('abort', onAbort);
      const wallMs = clock.now() - t0;
      const cpu1 = cpu0 === undefined ? undefined : link.cpuMs?.();
      const cpuMs = cpu0 !== undefined && cpu1 !== undefined ? { cpuMs: Math.max(0, cpu1 - cpu0) } : {};
      const outcome: JobOutcome = { moveCount: replayer.count, moves: recorder.result(), wallMs, ...cpuMs, ...o };
      if (notify && !link.closed) {
        if (outcome.verdict !== 'solved' && outcome.verdict !== 'gave-up' && outcome.verdict !== 'unsupported') {
          link.send({ type: 'cancel', id: requestId });
        }
        link.send({
          type: 'result',
          id: requestId,
          verdict: outcome.verdict,
          moves: outcome.moveCount,
          timeMs: Math.round(outcome.wallMs),
          ...(outcome.errorIndex !== undefined ? { index: outcome.errorIndex } : {}),
          ...(outcome.error !== undefined ? { reason: outcome.error } : {}),
        });
        if (!outcome.linkBroken) afterResult?.();
      }
      resolve(outcome);
    };

    const onMoves = (m: MovesMessage) => {
      recorder.push(m.moves);
      const bad = replayer.push(m.moves);
      if (bad) return settle({ verdict: 'invalid', errorIndex: bad.index, error: bad.reason, linkBroken: false }, true);
      if (replayer.count > job.maxMoves) {
        return settle({ verdict: 'invalid', errorIndex: job.maxMoves, error: `more than the limit of ${job.maxMoves} moves`, linkBroken: false }, true);
      }
      if (!m.final) return;
      const end = replayer.finish();
      const info = m.info ?? {};
      settle(
        {
          verdict: end.verdict,
          ...(end.verdict === 'invalid' ? { error: end.reason, ...(end.index !== undefined ? { errorIndex: end.index } : {}) } : {}),
          ...(info.computeMs !== undefined ? { reportedMs: info.computeMs } : {}),
          ...(info.optimal !== undefined ? { claimedOptimal: info.optimal } : {}),
          ...(info.note !== undefined ? { note: info.note } : {}),
          ...(info.nodes !== undefined ? { nodes: info.nodes } : {}),
          linkBroken: false,
        },
        true,
      );
    };

    const onEvent = (e: LinkEvent) => {
      if (done) return;
      if (e.type === 'closed') return settle({ verdict: e.verdict ?? 'crash', error: e.reason, linkBroken: true }, false);
      if (e.type === 'malformed') return settle({ verdict: 'protocol', error: e.reason, linkBroken: true }, true);
      const m = e.message;
      // The link drops late answers to cancelled requests (BotLink's contract); anything else is a violation.
      if (m.type === 'hello') return settle({ verdict: 'protocol', error: 'unexpected hello after the handshake', linkBroken: true }, true);
      if (m.id !== requestId) return settle({ verdict: 'protocol', error: `${m.type} for an unknown request id`, linkBroken: true }, true);
      if (m.type === 'moves') return onMoves(m);
      if (m.type === 'give-up') return settle({ verdict: 'gave-up', error: m.reason ?? 'gave up', linkBroken: false }, true);
      if (m.type === 'ready') return settle({ verdict: 'protocol', error: 'ready answers a prepare, not a solve', linkBroken: true }, true);
      return settle({ verdict: 'unsupported', error: m.reason ?? 'declined the puzzle', linkBroken: false }, true);
    };

    const onAbort = () => {
      if (done) return;
      done = true;
      unsubscribe();
      cancelTimer();
      if (!link.closed) link.send({ type: 'cancel', id: requestId });
      resolve(undefined);
    };

    if (signal?.aborted) {
      done = true;
      if (!link.closed) link.send({ type: 'cancel', id: requestId });
      return resolve(undefined);
    }
    // The solve leaves first, in a write of its own (with the result before it when they share the turn):
    // the rest is the referee's own bookkeeping, done while the bot reads it. No answer can come before this
    // function returns (a link's events come in later turns), and the time limit runs from t0, taken above.
    // A link that is already closed still delivers what it buffered (a violation right after the hello is
    // `protocol`, not `crash`) and then its `closed` event; sending to it is a no-op.
    link.send({ type: 'solve', id: requestId, puzzle: job.state, timeLimitMs: job.timeLimitMs, maxMoves: job.maxMoves });
    link.flush?.();
    const puzzle = puzzleOf(job.state);
    const replayer = puzzle.replayer(job.state);
    // The answer is kept compactly as it streams (never one JS value per move), for the store.
    const recorder = new MoveRecorder(puzzle.moves.name);
    const unsubscribe = link.onEvent(onEvent);
    const cancelTimer = clock.setTimer(job.timeLimitMs - (clock.now() - t0), () =>
      settle({ verdict: 'timeout', error: `no final answer within ${job.timeLimitMs} ms`, linkBroken: true }, true),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
