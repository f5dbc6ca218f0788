import { describe, expect, it } from 'vitest';
import type { PuzzleState, WireMoves } from '../../src/core/types.ts';
import type { BotMessage, RefereeMessage } from '../../src/protocol/messages.ts';
import type { Channel } from '../../src/sdk/channel.ts';
import { chunked } from '../../src/sdk/chunked.ts';
import { parseBotMessage } from '../../src/protocol/schema.ts';
import { serveBot } from '../../src/sdk/serve.ts';
import type { BotDefinition, SolveContext } from '../../src/sdk/types.ts';

/** An in-memory channel: the test plays the referee. */
function fakeChannel() {
  const sent: BotMessage[] = [];
  let onMessage: (text: string) => void = () => undefined;
  let onClose: (reason: string) => void = () => undefined;
  let closed = false;
  const waiters: Array<() => void> = [];
  const channel: Channel = {
    send: async (m) => {
      sent.push(m);
      for (const w of waiters.splice(0)) w();
    },
    onMessage: (l) => {
      onMessage = l;
    },
    onClose: (l) => {
      onClose = l;
    },
    close: () => {
      closed = true;
    },
  };
  return {
    channel,
    sent,
    get closed() {
      return closed;
    },
    deliver: (m: RefereeMessage) => onMessage(JSON.stringify(m)),
    deliverText: (t: string) => onMessage(t),
    drop: () => onClose('gone'),
    until: (pred: (m: BotMessage) => boolean) =>
      new Promise<void>((done) => {
        const check = (): void => (sent.some(pred) ? done() : void waiters.push(check));
        check();
      }),
  };
}

const puzzle = { kind: 'sliding' as const, rows: 2, cols: 2, tiles: [1, 2, 0, 3] };
const solveMsg = (id: string, p: PuzzleState = puzzle): RefereeMessage => ({
  type: 'solve', id, puzzle: p, timeLimitMs: 1000, maxMoves: 10_000_000,
});

function bot(solve: BotDefinition['solve']): BotDefinition {
  return { name: 't', version: '1', capabilities: [{ kind: 'sliding' }], solve };
}

function start(def: BotDefinition) {
  const f = fakeChannel();
  const logs: string[] = [];
  const done = serveBot(def, f.channel, (t) => logs.push(t));
  return Object.assign(f, { logs, done });
}

describe('chunked', () => {
  it('splits strings and pair arrays into pieces that concatenate back', () => {
    expect([...chunked('UDLRUDL', 3)]).toEqual(['UDL', 'RUD', 'L']);
    expect([...chunked('', 3)]).toEqual(['']);
    const pairs: Array<[number, number]> = [[1, 2], [3, 4], [5, 6]];
    expect([...chunked(pairs, 2)]).toEqual([[[1, 2], [3, 4]], [[5, 6]]]);
    expect([...chunked([], 2)]).toEqual([[]]);
  });

  it('cuts space-separated moves after a space', () => {
    const parts = [...chunked('17U 4L 12D 3R', 8)] as string[];
    expect(parts.join('')).toBe('17U 4L 12D 3R');
    for (const p of parts.slice(0, -1)) expect(p.endsWith(' ')).toBe(true);
  });
});

describe('serveBot', () => {
  it('says hello with the definition, then answers a solve with one final chunk and info', async () => {
    let seen: SolveContext | undefined;
    const s = start(bot((_p, ctx) => ((seen = ctx), { moves: 'R', optimal: true, nodes: 4 })));
    expect(s.sent[0]).toEqual({ type: 'hello', protocol: 2, name: 't', version: '1', capabilities: [{ kind: 'sliding' }], reuse: true });
    s.deliver({ type: 'welcome', protocol: 1, session: 'x', limits: { maxPayload: 4 << 20 } });
    s.deliver(solveMsg('a'));
    await s.until((m) => m.type === 'moves');
    expect(s.sent[1]).toMatchObject({ type: 'moves', id: 'a', moves: 'R', final: true, info: { optimal: true, nodes: 4 } });
    expect((s.sent[1] as { info: { computeMs: number } }).info.computeMs).toBeGreaterThanOrEqual(0);
    expect(seen).toMatchObject({ timeLimitMs: 1000, maxMoves: 10_000_000 });
    expect(seen!.deadline).toBeGreaterThan(Date.now() - 5000);
  });

  it('says no reuse for a bot that opts out of it', () => {
    const s = start({ ...bot(() => ({ moves: 'R' })), reuse: false });
    expect(s.sent[0]).not.toHaveProperty('reuse');
    expect(parseBotMessage(JSON.stringify(s.sent[0]))).toMatchObject({ ok: true });
  });

  it('splits a long string answer to fit the announced payload limit', async () => {
    const s = start(bot(() => ({ moves: 'U'.repeat(2500) })));
    s.deliver({ type: 'welcome', protocol: 1, session: 'x', limits: { maxPayload: 4000 } });
    s.deliver(solveMsg('a'));
    await s.until((m) => m.type === 'moves' && m.final);
    const chunks = s.sent.filter((m) => m.type === 'moves');
    expect(chunks.map((c) => (c.moves as string).length)).toEqual([1000, 1000, 500]);
    expect(chunks.map((c) => c.final)).toEqual([false, false, true]);
    expect(chunks[2]!.info).toBeDefined();
  });

  it('streams an async iterable as non-final chunks and an empty final chunk', async () => {
    const s = start(bot(() => ({
      moves: (async function* () {
        yield [[1, 2]] as WireMoves;
        yield [[3, 4]] as WireMoves;
      })(),
      note: 'streamed',
    })));
    s.deliver(solveMsg('a', { kind: 'swaps', rows: 1, cols: 4, tiles: [2, 1, 4, 3] }));
    await s.until((m) => m.type === 'moves' && m.final);
    expect(s.sent.slice(1)).toMatchObject([
      { type: 'moves', id: 'a', moves: [[1, 2]], final: false },
      { type: 'moves', id: 'a', moves: [[3, 4]], final: false },
      { type: 'moves', id: 'a', moves: [], final: true, info: { note: 'streamed' } },
    ]);
  });

  it('streams an array of string chunks as chunks, not as one array of pairs', async () => {
    const s = start(bot(() => ({ moves: ['UL', 'DR'] })));
    s.deliver(solveMsg('c'));
    await s.until((m) => m.type === 'moves' && m.final);
    expect(s.sent.slice(1)).toMatchObject([
      { type: 'moves', id: 'c', moves: 'UL', final: false },
      { type: 'moves', id: 'c', moves: 'DR', final: false },
      { type: 'moves', id: 'c', moves: '', final: true },
    ]);
  });

  it('sends an array of swap pairs as one answer, and an array of pair chunks as chunks', async () => {
    const s = start(bot((p) => ({ moves: p.kind === 'swaps' && p.rows === 1 ? [[1, 2], [3, 4]] : [[[1, 2]], [[3, 4]]] })));
    s.deliver(solveMsg('d', { kind: 'swaps', rows: 1, cols: 4, tiles: [2, 1, 4, 3] }));
    await s.until((m) => m.type === 'moves' && m.id === 'd' && m.final);
    s.deliver(solveMsg('e', { kind: 'swaps', rows: 2, cols: 2, tiles: [2, 1, 4, 3] }));
    await s.until((m) => m.type === 'moves' && m.id === 'e' && m.final);
    expect(s.sent.filter((m) => m.type === 'moves')).toMatchObject([
      { id: 'd', moves: [[1, 2], [3, 4]], final: true },
      { id: 'e', moves: [[1, 2]], final: false },
      { id: 'e', moves: [[3, 4]], final: false },
      { id: 'e', moves: [], final: true },
    ]);
  });

  it('sends give-up and unsupported answers', async () => {
    const s = start(bot((p) => (p.kind === 'sliding' && p.tiles[0] === 1 ? { giveUp: 'tired' } : { unsupported: 'nope' })));
    s.deliver(solveMsg('a'));
    s.deliver(solveMsg('b', { ...puzzle, tiles: [2, 1, 0, 3] }));
    await s.until((m) => m.type === 'unsupported');
    expect(s.sent.slice(1)).toEqual([
      { type: 'give-up', id: 'a', reason: 'tired' },
      { type: 'unsupported', id: 'b', reason: 'nope' },
    ]);
  });

  it('turns a throwing solve into give-up with the message and logs it', async () => {
    const s = start(bot(() => {
      throw new Error('boom');
    }));
    s.deliver(solveMsg('a'));
    await s.until((m) => m.type === 'give-up');
    expect(s.sent[1]).toEqual({ type: 'give-up', id: 'a', reason: 'solver threw: boom' });
    expect(s.logs.join('\n')).toMatch(/boom/);
  });

  it('serves solves one at a time, in order', async () => {
    let running = 0;
    let maxRunning = 0;
    const s = start(bot(async (p) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
      return { moves: p.kind === 'sliding' ? String(p.tiles[0]) : '' };
    }));
    for (const id of ['a', 'b', 'c']) s.deliver(solveMsg(id, { ...puzzle, tiles: [id.charCodeAt(0) - 96, 2, 0, 3] }));
    await s.until((m) => m.type === 'moves' && m.id === 'c');
    expect(maxRunning).toBe(1);
    expect(s.sent.slice(1).map((m) => (m as { moves: string }).moves)).toEqual(['1', '2', '3']);
  });

  it('aborts the signal on cancel and sends nothing for that request', async () => {
    let signal: AbortSignal | undefined;
    const s = start(bot((_p, ctx) => {
      signal = ctx.signal;
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ moves: 'R' })));
    }));
    s.deliver(solveMsg('a'));
    await new Promise((r) => setTimeout(r, 0));
    s.deliver({ type: 'cancel', id: 'a' });
    expect(signal?.aborted).toBe(true);
    s.deliver({ type: 'bye' });
    await s.done;
    expect(s.sent.filter((m) => m.type !== 'hello')).toEqual([]);
  });

  it('ignores bad referee messages and results, and ends on bye', async () => {
    const s = start(bot(() => ({ moves: '' })));
    s.deliverText('garbage');
    s.deliver({ type: 'result', id: 'a', verdict: 'solved', moves: 1, timeMs: 1 });
    s.deliver({ type: 'bye', reason: 'done' });
    await s.done;
    expect(s.closed).toBe(true);
    expect(s.logs.join('\n')).toMatch(/ignoring a bad message/);
  });

  it('ends when the connection drops, aborting the running solve', async () => {
    let signal: AbortSignal | undefined;
    const s = start(bot((_p, ctx) => ((signal = ctx.signal), new Promise(() => undefined))));
    s.deliver(solveMsg('a'));
    await new Promise((r) => setTimeout(r, 0));
    s.drop();
    await s.done;
    expect(signal?.aborted).toBe(true);
  });
});
