import { describe, expect, it } from 'vitest';
import type { LinkEvent } from '../../src/protocol/link.ts';
import { solveOne } from '../../src/referee/solve-one.ts';
import { LinkCore, type LinkTransport } from '../../src/transport/link-core.ts';
import { slidingBoard } from '../helpers/boards.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { helloFor, ScriptedLink } from '../helpers/scripted-link.ts';

/** A transport that records what the link does with it. */
function recorder(): LinkTransport & { written: any[]; ends: Array<[string, boolean]>; kills: number } {
  const t = {
    written: [] as any[],
    ends: [] as Array<[string, boolean]>,
    kills: 0,
    write: (text: string) => void t.written.push(JSON.parse(text)),
    end: (reason: string, violation: boolean) => void t.ends.push([reason, violation]),
    kill: () => void t.kills++,
  };
  return t;
}

function core(graceMs = 20) {
  const t = recorder();
  const link = new LinkCore(helloFor('b'), t, graceMs);
  const events: LinkEvent[] = [];
  link.onEvent((e) => events.push(e));
  return { t, link, events };
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const board = slidingBoard(2, 2, 'LU');
const solve = (id: string) => ({ type: 'solve' as const, id, puzzle: board.state, timeLimitMs: 1000, maxMoves: 10 });

describe('LinkCore', () => {
  it('LinkCore - a violation is one malformed event, then closed at once, a bye and an orderly end flagged as a violation', async () => {
    const { t, link, events } = core();
    await tick();
    link.receive('{"type":"moves"');
    expect(events.map((e) => e.type)).toEqual(['malformed', 'closed']);
    expect(link.closed).toBe(true);
    expect(t.written.at(-1)).toMatchObject({ type: 'bye', reason: expect.stringMatching(/^protocol violation: not JSON/) });
    expect(t.ends).toEqual([[expect.stringMatching(/^protocol violation/), true]]);
    link.receive('{"type":"give-up","id":"x"}');
    link.send(solve('late'));
    expect(events).toHaveLength(2);
    expect(t.written.filter((m) => m.type === 'solve')).toEqual([]);
  });

  it('LinkCore - a listener that throws is caught by the guard and ends the link instead of the process', async () => {
    const { link, events } = core();
    link.onEvent((e) => {
      if (e.type === 'message') throw new RangeError('boom');
    });
    await tick();
    link.send(solve('a'));
    link.receive('{"type":"give-up","id":"a"}');
    expect(events.map((e) => e.type)).toEqual(['message', 'malformed', 'closed']);
    expect(events[1]).toEqual({ type: 'malformed', reason: 'the referee failed to handle the message (RangeError: boom)' });
  });

  it('LinkCore - close() says bye, ends the transport, and cuts it after the grace period if the bot lingers', async () => {
    const { t, link, events } = core(30);
    await link.close('match over');
    expect(t.written.at(-1)).toEqual({ type: 'bye', reason: 'match over' });
    expect(t.ends).toEqual([['match over', false]]);
    expect(t.kills).toBe(1);
    expect(events.at(-1)).toEqual({ type: 'closed', reason: 'match over' });
    expect(await Promise.race([link.close(), tick().then(() => 'pending')])).toBeUndefined();
  });

  it('LinkCore - close() resolves as soon as the transport reports its end', async () => {
    const { t, link } = core(60_000);
    const closing = link.close('done');
    link.ended('socket closed');
    await closing;
    expect(t.kills).toBe(0);
  });
});

describe('solveOne with request ids', () => {
  it('solveOne - every request gets a fresh 128-bit id', async () => {
    const clock = new FakeClock();
    const link = new ScriptedLink((s, bot) => bot.send({ type: 'give-up', id: s.id }), { clock });
    for (let i = 0; i < 200; i++) await clock.run(solveOne(link, { state: board.state, timeLimitMs: 1000, maxMoves: 10 }, clock));
    const ids = link.sentOf('solve').map((m) => m.id);
    expect(new Set(ids).size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('solveOne - an answer under another id is a protocol verdict and breaks the link', async () => {
    const clock = new FakeClock();
    const link = new ScriptedLink((s, bot) => bot.send({ type: 'moves', id: `${s.id}-guess`, moves: board.solution, final: true }), { clock });
    const out = await clock.run(solveOne(link, { state: board.state, timeLimitMs: 1000, maxMoves: 10 }, clock));
    expect(out).toMatchObject({ verdict: 'protocol', error: 'moves for an unknown request id', linkBroken: true });
  });

  it('solveOne - a link that died of a violation before the request reports protocol, not crash', async () => {
    const { link } = core();
    link.receive('{"type":"give-up","id":"guessed-before-any-solve"}');
    expect(link.closed).toBe(true);
    const clock = new FakeClock();
    const out = await clock.run(solveOne(link, { state: board.state, timeLimitMs: 1000, maxMoves: 10 }, clock));
    expect(out).toMatchObject({ verdict: 'protocol', linkBroken: true });
    expect(out!.error).toMatch(/not open/);
  });
});
