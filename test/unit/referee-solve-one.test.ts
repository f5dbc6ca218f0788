import { describe, expect, it } from 'vitest';
import { wireMovesOf } from '../../src/puzzles/move-pieces.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { solveOne } from '../../src/referee/solve-one.ts';
import { slidingBoard } from '../helpers/boards.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import {
  decline,
  dropOnSolve,
  giveUp,
  helloOnSolve,
  malformedOnSolve,
  reply,
  ScriptedLink,
  silent,
  type LinkScript,
  type SolveScript,
} from '../helpers/scripted-link.ts';

// The referee's handling of one request, in-process: a scripted bot on a fake clock. Every time below is
// exact because no real time passes.

const board = slidingBoard(3, 3, 'LLUURDDLUR');
const LIMIT = 10_000;

/** A request for `state` (solveOne picks the id). */
function request(state: PuzzleState, o: { timeLimitMs?: number; maxMoves?: number } = {}) {
  return { state, timeLimitMs: o.timeLimitMs ?? LIMIT, maxMoves: o.maxMoves ?? 1000 };
}

function setup(script: LinkScript) {
  const clock = new FakeClock();
  const link = new ScriptedLink(script, { clock });
  return { clock, link };
}

describe('solveOne in-process', () => {
  it('solveOne - a correct answer in chunks is solved, counted by the referee, timed by the clock', async () => {
    const { clock, link } = setup(reply(board.solution, { chunks: 3, delayMs: 40, info: { optimal: true, computeMs: 7, note: 'n', nodes: 4321 } }));
    const out = await clock.run(solveOne(link, request(board.state), clock));
    expect(out).toMatchObject({ verdict: 'solved', moveCount: board.solution.length, wallMs: 120, linkBroken: false });
    expect(wireMovesOf(out!.moves)).toBe(board.solution);
    expect(out).toMatchObject({ reportedMs: 7, claimedOptimal: true, note: 'n', nodes: 4321 });
    const [solve] = link.sentOf('solve');
    expect(link.sentOf('result')).toEqual([{ type: 'result', id: solve.id, verdict: 'solved', moves: board.solution.length, timeMs: 120 }]);
    expect(link.sentOf('cancel')).toEqual([]);
  });

  it('solveOne - silence is a timeout at exactly the limit; the bot gets cancel, then the result', async () => {
    const { clock, link } = setup(silent);
    const out = await clock.run(solveOne(link, request(board.state), clock));
    expect(out).toMatchObject({ verdict: 'timeout', moveCount: 0, wallMs: LIMIT, linkBroken: true });
    expect(out!.error).toMatch(/10000 ms/);
    const id = link.sentOf('solve')[0].id;
    expect(link.sent.map((m) => m.type)).toEqual(['solve', 'cancel', 'result']);
    expect(link.sentOf('cancel')).toEqual([{ type: 'cancel', id }]);
    expect(link.sentOf('result')[0]).toMatchObject({ id, verdict: 'timeout' });
    expect(clock.pending).toBe(0);
  });

  it('solveOne - an answer that comes one tick after the limit is still a timeout', async () => {
    const { clock, link } = setup(reply(board.solution, { delayMs: LIMIT + 1 }));
    const out = await clock.run(solveOne(link, request(board.state), clock));
    expect(out).toMatchObject({ verdict: 'timeout', wallMs: LIMIT });
  });

  it('solveOne - an answer just inside the limit is accepted', async () => {
    const { clock, link } = setup(reply(board.solution, { delayMs: LIMIT - 1 }));
    const out = await clock.run(solveOne(link, request(board.state), clock));
    expect(out).toMatchObject({ verdict: 'solved', wallMs: LIMIT - 1 });
  });

  it('solveOne - one move over maxMoves is invalid at index maxMoves, counted chunk by chunk', async () => {
    const maxMoves = board.solution.length - 1;
    const { clock, link } = setup(reply(board.solution, { chunks: 2 }));
    const out = await clock.run(solveOne(link, request(board.state, { maxMoves }), clock));
    expect(out).toMatchObject({ verdict: 'invalid', errorIndex: maxMoves, linkBroken: false });
    expect(out!.error).toMatch(new RegExp(`limit of ${maxMoves} moves`));
    expect(link.sent.map((m) => m.type)).toEqual(['solve', 'cancel', 'result']);
  });

  it('solveOne - maxMoves exactly is allowed', async () => {
    const { clock, link } = setup(reply(board.solution));
    const out = await clock.run(solveOne(link, request(board.state, { maxMoves: board.solution.length }), clock));
    expect(out?.verdict).toBe('solved');
  });

  it('solveOne - an illegal move is invalid at its index, and the moves received so far are kept', async () => {
    // The blank starts in the centre: R and D take it to the bottom-right corner, where D is illegal.
    const { state } = slidingBoard(3, 3, 'LU');
    const { clock, link } = setup(reply('RDD'));
    const out = await clock.run(solveOne(link, request(state), clock));
    expect(out).toMatchObject({ verdict: 'invalid', errorIndex: 2, moveCount: 2 });
    expect(wireMovesOf(out!.moves)).toBe('RDD');
  });

  it('solveOne - a hello after the handshake is a protocol verdict', async () => {
    const { clock, link } = setup(helloOnSolve);
    const out = await clock.run(solveOne(link, request(board.state), clock));
    expect(out).toMatchObject({ verdict: 'protocol', wallMs: 0 });
    expect(out!.error).toMatch(/hello after the handshake/);
  });

  it('solveOne - a malformed message is a protocol verdict with the transport\'s reason', async () => {
    const { clock, link } = setup(malformedOnSolve('bad JSON at byte 3'));
    const out = await clock.run(solveOne(link, request(board.state), clock));
    expect(out).toMatchObject({ verdict: 'protocol', error: 'bad JSON at byte 3' });
  });

  it('solveOne - a dropped connection is a crash with its reason, and nothing more is sent', async () => {
    const { clock, link } = setup(dropOnSolve('process exited with code 3', 250));
    const out = await clock.run(solveOne(link, request(board.state), clock));
    expect(out).toMatchObject({ verdict: 'crash', error: 'process exited with code 3', wallMs: 250, linkBroken: true });
    expect(link.sent.map((m) => m.type)).toEqual(['solve']);
  });

  it('solveOne - give-up and unsupported are their own verdicts, without a cancel', async () => {
    for (const [script, verdict] of [[giveUp('too deep'), 'gave-up'], [decline('no 3x3'), 'unsupported']] as const) {
      const { clock, link } = setup(script);
      const out = await clock.run(solveOne(link, request(board.state), clock));
      expect(out).toMatchObject({ verdict, linkBroken: false });
      expect(link.sent.map((m) => m.type)).toEqual(['solve', 'result']);
    }
  });

  it('solveOne - abort mid-answer cancels the request, resolves to nothing and leaves no timer', async () => {
    const { clock, link } = setup(reply(board.solution, { chunks: 5, delayMs: 1000 }));
    const stop = new AbortController();
    const pending = solveOne(link, request(board.state), clock, stop.signal);
    await clock.advance(2500);
    stop.abort();
    expect(await clock.run(pending)).toBeUndefined();
    expect(link.sent.map((m) => m.type)).toEqual(['solve', 'cancel']);
    expect(clock.pending).toBe(3); // the scripted bot's own pending chunks; the referee's timer is gone
  });

  it('solveOne - a late chunk of a cancelled request never reaches the next request on the same link', async () => {
    // Request 1: the first chunk holds an illegal move (invalid, the link stays up: blank in the centre,
    // the second D leaves the board), the rest of the answer trickles in after the cancel. Request 2 on the same link is answered correctly and must be judged alone.
    const { state: bad } = slidingBoard(3, 3, 'LU');
    const first: SolveScript = (req, bot) => {
      bot.send({ type: 'moves', id: req.id, moves: 'DDD', final: false });
      bot.send({ type: 'moves', id: req.id, moves: 'UUU', final: true }, 50);
    };
    const { clock, link } = setup([first, reply(board.solution, { delayMs: 100 })]);
    const one = await clock.run(solveOne(link, request(bad), clock));
    expect(one).toMatchObject({ verdict: 'invalid', errorIndex: 1, linkBroken: false });
    const two = await clock.run(solveOne(link, request(board.state), clock));
    expect(two).toMatchObject({ verdict: 'solved', wallMs: 100 });
    expect(wireMovesOf(two!.moves)).toBe(board.solution);
    const [s1, s2] = link.sentOf('solve');
    expect(s1.id).not.toBe(s2.id);
    expect(link.sentOf('result').map((r) => [r.id, r.verdict])).toEqual([
      [s1.id, 'invalid'],
      [s2.id, 'solved'],
    ]);
  });

  it('solveOne - a closed link is a crash without sending anything', async () => {
    const { clock, link } = setup(reply(board.solution));
    await link.close('gone');
    const out = await clock.run(solveOne(link, request(board.state), clock));
    expect(out).toMatchObject({ verdict: 'crash', linkBroken: true });
    expect(link.sentOf('solve')).toEqual([]);
  });
});
