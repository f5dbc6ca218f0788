import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PuzzleState, WireMoves } from '../../src/core/types.ts';
import { replayMismatch, replayStored } from '../../src/app/audit/audit-replay.ts';
import { MoveRecorder } from '../../src/puzzles/move-pieces.ts';
import { MovesDigest, recordedMovesDigest } from '../../src/store/moves-digest.ts';
import type { ResultSummary } from '../../src/store/types.ts';
import { slidingBoard } from '../helpers/boards.ts';

// The audit's replay of a stored answer against the referee's own rules (src/referee/solve-one.ts), and the
// digest a seal covers the moves with, checked against SHA-256 of the stored text computed independently.

async function* pieces(...parts: WireMoves[]): AsyncGenerator<WireMoves> {
  for (const p of parts) yield p;
}

/** A 3x3 board six moves from the goal, with its six-move solution. */
const board = slidingBoard(3, 3, 'LLUURD');
const stored = (o: Partial<ResultSummary>): ResultSummary => ({
  scrambleId: 1, bot: 'b', verdict: 'solved', moveCount: 6, wallMs: 1, matchId: 1, scrambleIndex: 0, puzzleClass: 'sliding 3x3', bound: { lowerBound: 2 }, ...o,
});
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('audit replay', () => {
  it('audit replay - a solved answer stored as solved agrees; cut short, it no longer does', async () => {
    const got = await replayStored(board.state, pieces(board.solution));
    expect(got).toMatchObject({ legal: 6, illegalMove: false, outcome: { verdict: 'solved' }, movesSha256: sha(board.solution) });
    expect(replayMismatch(stored({}), got, 100)).toBeUndefined();
    const short = await replayStored(board.state, pieces(board.solution.slice(0, 5)));
    expect(replayMismatch(stored({}), short, 100)).toMatch(/^recorded solved with 6 moves, but the stored moves are 5 legal moves that do not solve it/);
    expect(replayMismatch(stored({ moveCount: 5 }), short, 100)).toMatch(/recorded solved with 5 moves, but the stored moves are 5 legal moves that do not solve it/);
  });

  it('audit replay - an illegal move must be recorded invalid at its index, whatever else is claimed', async () => {
    const bad = board.solution.slice(0, 2) + 'X' + board.solution.slice(2);
    const got = await replayStored(board.state, pieces(bad));
    expect(got).toMatchObject({ legal: 2, illegalMove: true });
    expect(replayMismatch(stored({ verdict: 'invalid', moveCount: 2, errorIndex: 2 }), got, 100)).toBeUndefined();
    expect(replayMismatch(stored({ verdict: 'invalid', moveCount: 2, errorIndex: 1 }), got, 100)).toMatch(/illegal move at 2/);
    expect(replayMismatch(stored({ verdict: 'timeout', moveCount: 2 }), got, 100)).toMatch(/^recorded timeout with 2 moves, but the stored moves have an illegal move at 2/);
    expect(replayMismatch(stored({ verdict: 'solved', moveCount: 2 }), got, 100)).toBeDefined();
  });

  it("audit replay - more moves than the match's limit must be recorded invalid at the limit", async () => {
    const got = await replayStored(board.state, pieces(board.solution));
    expect(replayMismatch(stored({ verdict: 'invalid', errorIndex: 4 }), got, 4)).toBeUndefined();
    expect(replayMismatch(stored({}), got, 4)).toMatch(/more than the match's limit of 4/);
    // Without a readable configuration the limit is unknown, and a solved answer stands on its moves.
    expect(replayMismatch(stored({}), got, undefined)).toBeUndefined();
  });

  it('audit replay - verdicts the moves cannot decide need only the count; an unsolved end must be invalid, not solved', async () => {
    const part = await replayStored(board.state, pieces(board.solution.slice(0, 3)));
    for (const verdict of ['timeout', 'crash', 'protocol', 'gave-up', 'memory'] as const) {
      expect(replayMismatch(stored({ verdict, moveCount: 3 }), part, 100)).toBeUndefined();
      expect(replayMismatch(stored({ verdict, moveCount: 0 }), part, 100)).toBeDefined();
    }
    expect(replayMismatch(stored({ verdict: 'invalid', moveCount: 3 }), part, 100)).toBeUndefined();
    const whole = await replayStored(board.state, pieces(board.solution));
    expect(replayMismatch(stored({ verdict: 'invalid' }), whole, 100)).toMatch(/solve it in 6/);
    const none = await replayStored(board.state, pieces());
    expect(replayMismatch(stored({ verdict: 'unsupported', moveCount: 0 }), none, 100)).toBeUndefined();
    expect(none.movesSha256).toBe(sha(''));
  });

  it('audit replay - a Hanoi answer streamed with moves split across pieces replays as it does whole', async () => {
    const state: PuzzleState = { kind: 'hanoi', pegs: 3, start: 'AA', goal: 'CC' };
    const whole = await replayStored(state, pieces('ABACBC'));
    const split = await replayStored(state, pieces('A', 'BA', 'CBC'));
    expect(split).toEqual(whole);
    expect(whole).toMatchObject({ legal: 3, outcome: { verdict: 'solved' } });
  });
});

describe('moves digest', () => {
  it('moves digest - text: SHA-256 of the text, however it is cut; the referee blocks give the same', () => {
    const text = 'UDLR'.repeat(300_000) + 'é';
    const d = new MovesDigest();
    for (let i = 0; i < text.length; i += 77_777) d.push(text.slice(i, i + 77_777));
    expect(d.hex()).toBe(sha(text));
    const rec = new MoveRecorder('text');
    rec.push(text.slice(0, 5));
    rec.push(text.slice(5));
    expect(recordedMovesDigest(rec.result())).toBe(sha(text));
  });

  it('moves digest - pairs: SHA-256 of their JSON array, from whole arrays, pieces or packed blocks (16- and 32-bit, raw JSON)', () => {
    const pairs: Array<[number, number]> = Array.from({ length: 200_000 }, (_, i) => [i % 70_000, (i * 7) % 100]);
    const odd = [[1.5, 2], 'x'] as unknown as Array<[number, number]>;
    const json = JSON.stringify([...pairs, ...odd]);
    const rec = new MoveRecorder('pairs');
    rec.push(pairs.slice(0, 1000));
    rec.push(pairs.slice(1000));
    rec.push(odd);
    expect(recordedMovesDigest(rec.result())).toBe(sha(json));
    expect(recordedMovesDigest([...pairs, ...odd])).toBe(sha(json));
    const d = new MovesDigest();
    d.push([]);
    d.push(pairs);
    d.push(odd);
    expect(d.hex()).toBe(sha(json));
    expect(recordedMovesDigest([])).toBe(sha('[]'));
    expect(recordedMovesDigest(new MoveRecorder('pairs').result())).toBe(sha('[]'));
  });
});
