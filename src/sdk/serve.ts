/**
 * The bot side of the protocol: hello, then one solve at a time, streaming each answer in chunks. The bot's
 * solve callback sees puzzles and returns moves; everything about the wire lives here.
 */
import type { WireMoves } from '../core/types.ts';
import type { PrepareMessage, SolveInfo, SolveMessage } from '../protocol/messages.ts';
import { MAX_PAYLOAD, PROTOCOL_VERSION } from '../protocol/messages.ts';
import { parseRefereeMessage } from '../protocol/schema.ts';
import { puzzleOf } from '../puzzles/index.ts';
import type { Channel } from './channel.ts';
import { chunked, PAIR_CHUNK, STRING_CHUNK } from './chunked.ts';
import type { BotDefinition, SolveAnswer } from './types.ts';

type Log = (text: string) => void;

function isIterable(v: unknown): v is Iterable<WireMoves> | AsyncIterable<WireMoves> {
  if (typeof v !== 'object' || v === null || typeof v === 'string') return false;
  // An array is either one answer of swap pairs or a list of chunks: strings, or arrays of pairs.
  if (Array.isArray(v)) return v.length > 0 && (typeof v[0] === 'string' || (Array.isArray(v[0]) && Array.isArray(v[0][0])));
  return Symbol.iterator in v || Symbol.asyncIterator in v;
}

function infoOf(answer: SolveInfo, computeMs: number): SolveInfo {
  const info: { -readonly [K in keyof SolveInfo]: SolveInfo[K] } = { computeMs: answer.computeMs ?? computeMs };
  if (answer.optimal !== undefined) info.optimal = answer.optimal;
  if (answer.nodes !== undefined) info.nodes = answer.nodes;
  if (answer.note !== undefined) info.note = answer.note;
  return info;
}

/** Serves `def` over `channel` until the referee says bye or the connection ends. */
export function serveBot(def: BotDefinition, channel: Channel, log: Log): Promise<void> {
  let maxPayload = MAX_PAYLOAD;
  // Prepares and solves share one queue: a bot works on one request at a time, in the order they came.
  const queue: Array<SolveMessage | PrepareMessage> = [];
  let current: { id: string; abort: AbortController } | undefined;
  let done = false;

  const chunkSizes = (): { chars: number; pairs: number } => ({
    chars: Math.min(STRING_CHUNK, Math.floor(maxPayload / 4)),
    pairs: Math.min(PAIR_CHUNK, Math.floor(maxPayload / 40)),
  });

  const stream = async (req: SolveMessage, answer: SolveAnswer, started: number, signal: AbortSignal): Promise<void> => {
    if ('giveUp' in answer) return channel.send({ type: 'give-up', id: req.id, reason: answer.giveUp });
    if ('unsupported' in answer) return channel.send({ type: 'unsupported', id: req.id, reason: answer.unsupported });
    const { chars, pairs } = chunkSizes();
    const split = (m: WireMoves): WireMoves[] => {
      // Most answers fit one message: no generator for them.
      if (typeof m === 'string' ? m.length <= chars : m.length <= pairs) return [m];
      return [...chunked(m, typeof m === 'string' ? chars : pairs)];
    };
    if (!isIterable(answer.moves)) {
      const parts = split(answer.moves);
      for (let i = 0; i < parts.length; i++) {
        if (signal.aborted) return;
        const final = i === parts.length - 1;
        const info = final ? infoOf(answer, performance.now() - started) : undefined;
        await channel.send({ type: 'moves', id: req.id, moves: parts[i]!, final, ...(info ? { info } : {}) });
      }
      return;
    }
    for await (const chunk of answer.moves) {
      if (signal.aborted) return;
      for (const part of split(chunk)) await channel.send({ type: 'moves', id: req.id, moves: part, final: false });
    }
    if (signal.aborted) return;
    const empty = puzzleOf(req.puzzle).moves.empty;
    await channel.send({ type: 'moves', id: req.id, moves: empty, final: true, info: infoOf(answer, performance.now() - started) });
  };

  const prepare = async (req: PrepareMessage): Promise<void> => {
    const abort = new AbortController();
    current = { id: req.id, abort };
    try {
      await def.prepare?.({ kind: req.kind, puzzleClass: req.puzzleClass, timeLimitMs: req.timeLimitMs, signal: abort.signal });
    } catch (e) {
      // A failed warm-up is the bot's loss of time, not of the match: it is ready as it is.
      log(`${def.name}: prepare ${req.puzzleClass} failed: ${e instanceof Error && e.stack ? e.stack : String(e)}`);
    } finally {
      current = undefined;
    }
    if (!abort.signal.aborted) await channel.send({ type: 'ready', id: req.id });
  };

  // One controller serves solve after solve until a solve is cancelled: requests run one at a time, so a
  // signal that has not fired belongs to no earlier request any more, and a new AbortController costs about
  // 10 µs in Node 20, a good part of a fast bot's whole round trip.
  let solveAbort = new AbortController();
  const handle = async (req: SolveMessage | PrepareMessage): Promise<void> => {
    if (req.type === 'prepare') return prepare(req);
    if (solveAbort.signal.aborted) solveAbort = new AbortController();
    const abort = solveAbort;
    current = { id: req.id, abort };
    const started = performance.now();
    const ctx = { deadline: Date.now() + req.timeLimitMs, timeLimitMs: req.timeLimitMs, maxMoves: req.maxMoves, signal: abort.signal };
    try {
      const answer = await def.solve(req.puzzle, ctx);
      await stream(req, answer, started, abort.signal);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      log(`${def.name}: solve ${req.id} failed: ${e instanceof Error && e.stack ? e.stack : reason}`);
      // After a cancel the referee has stopped listening for this id; do not add noise.
      if (!abort.signal.aborted) await channel.send({ type: 'give-up', id: req.id, reason: `solver threw: ${reason}`.slice(0, 1000) });
    } finally {
      current = undefined;
    }
  };

  let pumping = false;
  const pump = async (): Promise<void> => {
    if (pumping) return;
    pumping = true;
    while (!done && queue.length > 0) await handle(queue.shift()!);
    pumping = false;
  };

  return new Promise<void>((resolve) => {
    const shutdown = (why: string): void => {
      if (done) return;
      done = true;
      queue.length = 0;
      current?.abort.abort(new Error(why));
      channel.close();
      resolve();
    };
    channel.onClose((reason) => shutdown(reason));
    channel.onMessage((text) => {
      const parsed = parseRefereeMessage(text);
      if (!parsed.ok) return log(`${def.name}: ignoring a bad message from the referee: ${parsed.reason}`);
      const m = parsed.message;
      switch (m.type) {
        case 'welcome':
          maxPayload = m.limits.maxPayload;
          return;
        case 'solve':
        case 'prepare':
          queue.push(m);
          void pump();
          return;
        case 'cancel': {
          if (current?.id === m.id) current.abort.abort(new Error('cancelled by the referee'));
          const i = queue.findIndex((q) => q.id === m.id);
          if (i >= 0) queue.splice(i, 1);
          return;
        }
        case 'result':
          return;
        case 'bye':
          return shutdown(m.reason ?? 'bye');
      }
    });
    void channel.send({
      type: 'hello',
      protocol: PROTOCOL_VERSION,
      name: def.name,
      version: def.version,
      capabilities: def.prepare ? def.capabilities.map((c) => ({ prepare: true, ...c })) : def.capabilities,
      ...(def.reuse === false ? {} : { reuse: true }),
    });
  });
}
