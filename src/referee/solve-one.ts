import type { PuzzleState, WireMoves } from '../core/types.ts';
import type { BotLink, Clock, LinkEvent } from '../protocol/link.ts';
import type { Capability, MovesMessage } from '../protocol/messages.ts';
import { puzzleOf } from '../puzzles/index.ts';
import { joinChunks } from '../puzzles/move-form.ts';
import type { ResultRecord } from '../store/types.ts';

/** One request to one bot. */
export interface SolveJob {
  /** Unique per request within a session: stale messages for older ids are ignored. */
  readonly requestId: string;
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
  const size = puzzleOf(state).sizeMeasure(state);
  if (cap.maxSize !== undefined && size > cap.maxSize) {
    return `bot declared ${state.kind} up to size ${cap.maxSize}; this scramble has size ${size}`;
  }
  return undefined;
}

/**
 * Sends one `solve`, validates every chunk as it arrives, and settles on exactly one verdict. Never throws
 * for anything a bot does. Resolves to undefined only when `signal` aborts first (the match is stopping:
 * nothing is recorded for this request).
 */
export function solveOne(link: BotLink, job: SolveJob, clock: Clock, signal?: AbortSignal): Promise<JobOutcome | undefined> {
  const puzzle = puzzleOf(job.state);
  const replayer = puzzle.replayer(job.state);
  const chunks: WireMoves[] = [];
  return new Promise((resolve) => {
    let done = false;
    const t0 = clock.now();

    const settle = (o: Omit<JobOutcome, 'moves' | 'moveCount' | 'wallMs'> & { wallMs?: number }, notify: boolean) => {
      if (done) return;
      done = true;
      unsubscribe();
      cancelTimer();
      signal?.removeEventListener('abort', onAbort);
      const outcome: JobOutcome = { moveCount: replayer.count, moves: joinChunks(chunks, puzzle.moves), wallMs: clock.now() - t0, ...o };
      if (notify && !link.closed) {
        if (outcome.verdict !== 'solved' && outcome.verdict !== 'gave-up' && outcome.verdict !== 'unsupported') {
          link.send({ type: 'cancel', id: job.requestId });
        }
        link.send({
          type: 'result',
          id: job.requestId,
          verdict: outcome.verdict,
          moves: outcome.moveCount,
          timeMs: Math.round(outcome.wallMs),
          ...(outcome.errorIndex !== undefined ? { index: outcome.errorIndex } : {}),
          ...(outcome.error !== undefined ? { reason: outcome.error } : {}),
        });
      }
      resolve(outcome);
    };

    const onMoves = (m: MovesMessage) => {
      chunks.push(m.moves);
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
      if (e.type === 'closed') return settle({ verdict: 'crash', error: e.reason, linkBroken: true }, false);
      if (e.type === 'malformed') return settle({ verdict: 'protocol', error: e.reason, linkBroken: false }, true);
      const m = e.message;
      if (m.type === 'hello') return settle({ verdict: 'protocol', error: 'unexpected hello after the handshake', linkBroken: false }, true);
      // Messages for an earlier request (sent before its cancel arrived) are stale, not a protocol error.
      if (m.id !== job.requestId) return;
      if (m.type === 'moves') return onMoves(m);
      if (m.type === 'give-up') return settle({ verdict: 'gave-up', error: m.reason ?? 'gave up', linkBroken: false }, true);
      return settle({ verdict: 'unsupported', error: m.reason ?? 'declined the puzzle', linkBroken: false }, true);
    };

    const onAbort = () => {
      if (done) return;
      done = true;
      unsubscribe();
      cancelTimer();
      if (!link.closed) link.send({ type: 'cancel', id: job.requestId });
      resolve(undefined);
    };

    const unsubscribe = link.onEvent(onEvent);
    const cancelTimer = clock.setTimer(job.timeLimitMs, () =>
      settle({ verdict: 'timeout', error: `no final answer within ${job.timeLimitMs} ms`, linkBroken: true }, true),
    );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    if (link.closed) return settle({ verdict: 'crash', error: 'connection closed before the request', linkBroken: true }, false);
    link.send({ type: 'solve', id: job.requestId, puzzle: job.state, timeLimitMs: job.timeLimitMs, maxMoves: job.maxMoves });
  });
}
