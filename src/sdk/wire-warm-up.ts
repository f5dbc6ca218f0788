/**
 * The SDK's own warm-up, in the protocol's untimed `prepare`: a thousand solves with itself over a
 * loopback WebSocket in this process, through the same client, parser and solve loop the real connection
 * uses, answered by a stand-in solver (never the bot's own `solve`).
 *
 * Why: a fresh Node process runs the SDK's per-message code (ws framing, the socket streams, parsing, the
 * solve loop) in the interpreter until the JIT has seen enough of it, which takes a couple of thousand
 * messages. A fast bot's first scrambles of a match would otherwise be charged that compilation, in wall
 * and in CPU time (the JIT's threads are the bot's), which is no part of its solver. It once ran before the
 * hello, which made every start about 0.15 s slower; the referee sends a `prepare` before the first timed
 * solve of each class on every connection, so doing it in the first one keeps it out of every timed solve
 * and out of the start (ARENA_SDK_WARM_UP=0 skips it).
 */
import { WebSocketServer, type WebSocket } from 'ws';
import type { SlidingState } from '../core/types.ts';
import { PROTOCOL_VERSION } from '../protocol/messages.ts';
import { sliding } from '../puzzles/sliding/index.ts';
import { serveBot } from './serve.ts';
import type { BotDefinition, PrepareRequest } from './types.ts';
import { connectWebSocket } from './ws-client.ts';

/** The number of warm-up solves instead of {@link WIRE_WARM_UP_SOLVES}; "0" skips it (a bot that starts often and solves little). */
export const ENV_WIRE_WARM_UP = 'ARENA_SDK_WARM_UP';

/** Solves the warm-up plays: enough for the JIT to optimize the per-message path. */
export const WIRE_WARM_UP_SOLVES = 1000;

/** The longest the warm-up may take, ms. */
const WIRE_WARM_UP_MAX_MS = 3000;

/** A request id like the referee's (22 base64url characters), different per solve. */
const requestId = (i: number): string => `warm-up-${String(i).padStart(14, '0')}`;

/** Plays the referee's side of the loopback: welcome, then result + next solve for each answer, then bye. */
function refereeSide(ws: WebSocket, solves: number): void {
  let sent = 0;
  const solve = (): void => {
    const tiles = sent % 2 === 0 ? [1, 2, 0, 3] : [1, 0, 3, 2];
    ws.send(JSON.stringify({ type: 'solve', id: requestId(sent++), puzzle: { kind: sliding.kind, rows: 2, cols: 2, tiles }, timeLimitMs: 10_000, maxMoves: 100 }));
  };
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as { type: string; id?: string; final?: boolean };
    if (m.type === 'hello') {
      ws.send(JSON.stringify({ type: 'welcome', protocol: PROTOCOL_VERSION, session: 'warm-up', limits: { maxPayload: 4 << 20 } }));
      return solve();
    }
    if (m.type !== 'moves' || !m.final) return;
    ws.send(JSON.stringify({ type: 'result', id: m.id, verdict: 'solved', moves: 1, timeMs: 0 }));
    if (sent < solves) solve();
    else ws.send(JSON.stringify({ type: 'bye', reason: 'warm-up done' }));
  });
}

function solvesFromEnv(): number {
  const v = process.env[ENV_WIRE_WARM_UP];
  const n = v === undefined || v.trim() === '' ? NaN : Number(v);
  return Number.isInteger(n) && n >= 0 ? n : WIRE_WARM_UP_SOLVES;
}

/** The stand-in solver: one move for either board, as a real answer would carry it. */
const standIn: BotDefinition = {
  name: 'warm-up',
  version: '0',
  capabilities: [{ kind: sliding.kind }],
  solve: (p) => ({ moves: p.kind === sliding.kind && (p as SlidingState).tiles[1] === 0 ? 'L' : 'R', optimal: true, nodes: 1 }),
};

/**
 * Runs the warm-up (see the module comment); never throws: whatever goes wrong, the bot starts as it would
 * have without it.
 */
export async function warmUpWire(solves = solvesFromEnv()): Promise<void> {
  if (solves <= 0) return;
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  try {
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    wss.on('connection', (ws) => refereeSide(ws, solves));
    const { port } = wss.address() as { port: number };
    const channel = await connectWebSocket(`ws://127.0.0.1:${port}/`, 'warm-up');
    let timer: NodeJS.Timeout | undefined;
    // However slow the machine, the warm-up never holds the start-up past this; the bot then starts less warm.
    const cutOff = new Promise<void>((resolve) => (timer = setTimeout(resolve, WIRE_WARM_UP_MAX_MS)));
    await Promise.race([serveBot(standIn, channel, () => undefined), cutOff]);
    clearTimeout(timer);
    channel.close();
  } catch {
    // No loopback here (a sandbox without a network namespace of its own): start cold.
  } finally {
    for (const c of wss.clients) c.terminate();
    await new Promise((resolve) => wss.close(resolve));
  }
}

/**
 * `def` with the wire warm-up in its `prepare`: once per process, in the first `prepare` of a class the bot
 * wants it for ({@link BotDefinition.wireWarmUp}, default every class), before the bot's own. Every
 * capability then declares `prepare` (serve.ts does so for any definition with one), so the referee sends
 * one before the first timed solve. With the warm-up off and no `prepare` of its own, `def` is served as
 * it is.
 */
export function withWireWarmUp(def: BotDefinition, solves = solvesFromEnv(), warmUp: (solves: number) => Promise<void> = warmUpWire): BotDefinition {
  if (solves <= 0) return def;
  let warm: Promise<void> | undefined;
  const own = def.prepare?.bind(def);
  return {
    ...def,
    solve: def.solve.bind(def),
    async prepare(request: PrepareRequest) {
      if (def.wireWarmUp?.(request.puzzleClass) ?? true) await (warm ??= warmUp(solves));
      if (!request.signal.aborted) await own?.(request);
    },
  };
}
