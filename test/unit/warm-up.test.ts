import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import type { BotLink, LinkEvent } from '../../src/protocol/link.ts';
import type { BotMessage, Capability, PrepareMessage, RefereeMessage } from '../../src/protocol/messages.ts';
import { PROTOCOL_VERSION } from '../../src/protocol/messages.ts';
import { RequestLedger } from '../../src/protocol/request-ledger.ts';
import { parseBotMessage, parseRefereeMessage } from '../../src/protocol/schema.ts';
import { prepareOne, WarmUps } from '../../src/referee/warm-up.ts';
import { serveBot } from '../../src/sdk/serve.ts';
import { LinkEvents } from '../../src/transport/link-events.ts';
import { FakeClock } from '../helpers/fake-clock.ts';

/** A link whose bot answers each prepare by `onPrepare` (in-process, events on microtasks like a socket). */
class PrepLink implements BotLink {
  readonly sent: RefereeMessage[] = [];
  readonly hello;
  private readonly events = new LinkEvents();
  constructor(
    capabilities: Capability[],
    private readonly onPrepare: (m: PrepareMessage, reply: (msg: BotMessage | 'drop' | 'garbage') => void) => void,
  ) {
    this.hello = { type: 'hello' as const, protocol: PROTOCOL_VERSION, name: 'prep', version: '1', capabilities };
  }
  get closed(): boolean {
    return this.events.closed;
  }
  send(m: RefereeMessage): void {
    if (this.closed) return;
    this.sent.push(m);
    if (m.type !== 'prepare') return;
    this.onPrepare(m, (msg) =>
      queueMicrotask(() => {
        if (msg === 'drop') this.events.close('process exited with code 1');
        else if (msg === 'garbage') this.events.emit({ type: 'malformed', reason: 'not JSON' });
        else this.events.emit({ type: 'message', message: msg });
      }),
    );
  }
  onEvent(l: (e: LinkEvent) => void): () => void {
    return this.events.subscribe(l);
  }
  async close(): Promise<void> {
    this.events.close('closed by the referee');
  }
}

const sliding3: PuzzleState = { kind: 'sliding', rows: 3, cols: 3, tiles: [1, 2, 3, 4, 5, 6, 7, 0, 8] };
const job = { requestId: 'p1', kind: 'sliding' as const, puzzleClass: 'sliding 3x3', timeLimitMs: 1000 };

describe('prepareOne', () => {
  it('sends prepare with the class and resolves null on the matching ready', async () => {
    const clock = new FakeClock();
    const link = new PrepLink([{ kind: 'sliding', prepare: true }], (m, reply) => reply({ type: 'ready', id: m.id }));
    expect(await prepareOne(link, job, clock)).toBeNull();
    expect(link.sent).toEqual([{ type: 'prepare', id: 'p1', kind: 'sliding', puzzleClass: 'sliding 3x3', timeLimitMs: 1000 }]);
  });

  it('turns silence, a drop, garbage or a wrong answer into a verdict for the scramble, and a fresh bot after it', async () => {
    const cases: Array<[(m: PrepareMessage, r: (x: BotMessage | 'drop' | 'garbage') => void) => void, string, boolean, RegExp]> = [
      [() => {}, 'timeout', true, /not ready within 1000 ms/],
      [(_, r) => r('drop'), 'crash', true, /exited/],
      [(_, r) => r('garbage'), 'protocol', true, /not JSON/],
      [(m, r) => r({ type: 'moves', id: m.id, moves: 'R', final: true }), 'protocol', true, /moves is not an answer to prepare/],
      [(_, r) => r({ type: 'ready', id: 'not-sent' }), 'protocol', true, /ready for an unknown request id/],
    ];
    for (const [script, verdict, linkBroken, reason] of cases) {
      const clock = new FakeClock();
      const link = new PrepLink([{ kind: 'sliding', prepare: true }], script);
      const out = await clock.run(prepareOne(link, job, clock));
      expect(out, verdict).toMatchObject({ verdict, linkBroken });
      expect(out!.error).toMatch(reason);
      if (verdict === 'timeout') {
        expect(out!.wallMs).toBe(1000);
        expect(link.sent.at(-1)).toEqual({ type: 'cancel', id: 'p1' });
      }
    }
  });

  it('resolves undefined when the match stops first', async () => {
    const clock = new FakeClock();
    const link = new PrepLink([{ kind: 'sliding', prepare: true }], () => {});
    const stop = new AbortController();
    const pending = prepareOne(link, job, clock, stop.signal);
    stop.abort();
    expect(await pending).toBeUndefined();
  });
});

describe('WarmUps', () => {
  it('prepares each class once per connection, only for bots that asked, and again on a new connection', async () => {
    const clock = new FakeClock();
    const warm = new WarmUps();
    const answer = (m: PrepareMessage, r: (x: BotMessage) => void) => r({ type: 'ready', id: m.id });
    const link = new PrepLink([{ kind: 'sliding', prepare: true }, { kind: 'hanoi' }], answer);
    const s3 = { state: sliding3, puzzleClass: 'sliding 3x3' };
    const s4 = { state: { kind: 'sliding', rows: 4, cols: 4, tiles: [...Array(16).keys()].map((i) => (i + 1) % 16) } as PuzzleState, puzzleClass: 'sliding 4x4' };
    const hanoi = { state: { kind: 'hanoi', pegs: 3, start: 'AAA', goal: 'CCC' } as PuzzleState, puzzleClass: 'hanoi 3' };
    for (const s of [s3, s3, s4, hanoi, s4]) expect(await warm.ensure(link, s, clock)).toBeNull();
    expect(link.sent.filter((m) => m.type === 'prepare').map((m) => (m as PrepareMessage).puzzleClass)).toEqual(['sliding 3x3', 'sliding 4x4']);
    // A restarted bot is a new connection: prepared again.
    const again = new PrepLink([{ kind: 'sliding', prepare: true }], answer);
    expect(await warm.ensure(again, s3, clock)).toBeNull();
    expect(again.sent.map((m) => m.type)).toEqual(['prepare']);
    // A version-1 bot (no prepare declared) is never sent one.
    const v1 = new PrepLink([{ kind: 'sliding' }], answer);
    expect(await warm.ensure(v1, s3, clock)).toBeNull();
    expect(v1.sent).toEqual([]);
  });
});

describe('prepare on the wire', () => {
  it('the request ledger opens a prepare and lets its one ready through', () => {
    const ledger = new RequestLedger();
    ledger.noteSent({ type: 'prepare', id: 'w1', kind: 'sliding', puzzleClass: 'sliding 3x3', timeLimitMs: 1000 });
    expect(ledger.outstanding).toBe(1);
    expect(ledger.admit({ type: 'ready', id: 'w1' })).toEqual({ action: 'deliver' });
    expect(ledger.outstanding).toBe(0);
    expect(ledger.admit({ type: 'ready', id: 'w1' }).action).toBe('violation');
  });

  it('validates prepare and ready, and a capability may declare prepare', () => {
    expect(parseRefereeMessage(JSON.stringify({ type: 'prepare', id: 'a', kind: 'sliding', puzzleClass: 'sliding 3x3', timeLimitMs: 60000 })).ok).toBe(true);
    expect(parseRefereeMessage(JSON.stringify({ type: 'prepare', id: 'a', kind: 'cube', puzzleClass: 'x', timeLimitMs: 1 })).ok).toBe(false);
    expect(parseBotMessage(JSON.stringify({ type: 'ready', id: 'a' })).ok).toBe(true);
    expect(parseBotMessage(JSON.stringify({ type: 'ready' })).ok).toBe(false);
    const hello = { type: 'hello', protocol: 1, name: 'b', version: '1', capabilities: [{ kind: 'sliding', prepare: true }] };
    expect(parseBotMessage(JSON.stringify(hello))).toMatchObject({ ok: true, message: hello });
  });

  it('SDK: declares prepare when the bot has a callback, calls it before answering ready, in order with solves', async () => {
    const toBot: Array<(text: string) => void> = [];
    const fromBot: Array<Record<string, unknown>> = [];
    const calls: string[] = [];
    const channel = {
      send: async (m: unknown) => void fromBot.push(m as Record<string, unknown>),
      onMessage: (f: (text: string) => void) => void toBot.push(f),
      onClose: () => {},
      close: () => {},
    };
    const served = serveBot(
      {
        name: 'b',
        version: '1',
        capabilities: [{ kind: 'sliding', maxSize: 3 }],
        solve: () => (calls.push('solve'), { moves: 'R' }),
        prepare: async ({ puzzleClass }) => {
          await new Promise((r) => setTimeout(r, 20));
          calls.push(`prepare ${puzzleClass}`);
        },
      },
      channel as never,
      () => {},
    );
    expect(fromBot[0]).toMatchObject({ type: 'hello', capabilities: [{ kind: 'sliding', maxSize: 3, prepare: true }] });
    toBot[0](JSON.stringify({ type: 'prepare', id: 'p', kind: 'sliding', puzzleClass: 'sliding 3x3', timeLimitMs: 5000 }));
    toBot[0](JSON.stringify({ type: 'solve', id: 's', puzzle: sliding3, timeLimitMs: 5000, maxMoves: 10 }));
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toEqual(['prepare sliding 3x3', 'solve']);
    expect(fromBot.slice(1).map((m) => [m.type, m.id])).toEqual([['ready', 'p'], ['moves', 's']]);
    toBot[0](JSON.stringify({ type: 'bye' }));
    await served;
  });
});
