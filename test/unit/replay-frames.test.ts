import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { HanoiState, PuzzleState, SlidingState, SwapsState, WarehouseState, WireMoves } from '../../src/core/types.ts';
import { allFrames, replayFrames, streamFrames } from '../../src/app/records/replay-frames.ts';
import { openStoredAnswer } from '../../src/app/records/replay-seek.ts';
import { puzzles } from '../../src/puzzles/index.ts';
import { slidingTable } from '../../src/puzzles/sliding/table.ts';
import { solveHanoiRecursive } from '../../bots/hanoi-recursive/solve.ts';
import { solveSwapsGreedy } from '../../bots/swaps-greedy/solve.ts';
import { solveCorridors } from '../../bots/warehouse-corridors/corridors.ts';

type Pairs = [number, number][];

/** Collects a bot answer's streamed chunks into one wire value. */
function joined(answer: unknown): WireMoves {
  const moves = (answer as { moves: string | Iterable<string | Pairs> }).moves;
  if (typeof moves === 'string') return moves;
  const chunks = [...moves];
  return typeof chunks[0] === 'string' ? (chunks as string[]).join('') : (chunks as Pairs[]).flat();
}

/**
 * Independent single-move steppers (not the puzzles' replayers): each frame taken after every move must be
 * its predecessor with exactly the move named in `frame.move` applied.
 */
const step: { [K in PuzzleState['kind']]: (s: never, move: string) => PuzzleState } = {
  sliding(s: SlidingState, m: string) {
    const t = [...s.tiles];
    const b = t.indexOf(0);
    const to = b + ({ U: -s.cols, D: s.cols, L: -1, R: 1 } as Record<string, number>)[m];
    t[b] = t[to];
    t[to] = 0;
    return { ...s, tiles: t };
  },
  hanoi(s: HanoiState, m: string) {
    const from = m[0];
    const disc = s.start.indexOf(from);
    return { ...s, start: s.start.slice(0, disc) + m[1] + s.start.slice(disc + 1) };
  },
  swaps(s: SwapsState, m: string) {
    const [a, b] = m.split('<->').map(Number);
    const t = s.tiles.map((x) => (x === a ? b : x === b ? a : x));
    return { ...s, tiles: t };
  },
  warehouse(s: WarehouseState, m: string) {
    const tile = Number(m.slice(0, -1));
    const c = s.cells.indexOf(tile);
    const to = c + ({ U: -s.size, D: s.size, L: -1, R: 1 } as Record<string, number>)[m.slice(-1)];
    const cells = [...s.cells];
    cells[to] = tile;
    cells[c] = 0;
    return { ...s, cells };
  },
};

function cases(): { start: PuzzleState; moves: WireMoves }[] {
  const rng = createRng('replay frames');
  const sl = puzzles.sliding.scramble({ kind: 'sliding', rows: 3, cols: 3 }, rng) as SlidingState;
  const ha = puzzles.hanoi.scramble({ kind: 'hanoi', discs: 6, randomGoal: true }, rng) as HanoiState;
  const sw = puzzles.swaps.scramble({ kind: 'swaps', rows: 4, cols: 5 }, rng) as SwapsState;
  const wh = puzzles.warehouse.scramble({ kind: 'warehouse', size: 9 }, rng) as WarehouseState;
  return [
    { start: sl, moves: slidingTable(3, 3).solve(sl.tiles) },
    { start: ha, moves: joined(solveHanoiRecursive(ha, 7)) },
    { start: sw, moves: joined(solveSwapsGreedy(sw, 3)) },
    { start: wh, moves: solveCorridors(9, wh.cells).moves },
  ];
}

/** An answer as a store streams it: the form's empty moves, then slices of `size` (characters or pairs), from piece `from` on. */
async function* piecesOf(moves: WireMoves, size: number, from = 0): AsyncGenerator<WireMoves> {
  if (from === 0) yield typeof moves === 'string' ? '' : [];
  for (let at = Math.max(0, from - 1) * size; at < moves.length; at += size) yield moves.slice(at, at + size) as WireMoves;
}

describe('replayFrames', () => {
  it('yields the start, one frame per move matching an independent stepper, and a solved outcome, for every kind', () => {
    for (const { start, moves } of cases()) {
      const { frames, outcome } = allFrames(start, moves);
      expect(outcome.verdict, start.kind).toBe('solved');
      expect(frames[0]).toEqual({ index: 0, state: start });
      expect(frames.length).toBe(outcome.moves + 1);
      for (let i = 1; i < frames.length; i++) {
        expect(frames[i].index).toBe(i);
        expect(frames[i].state, `${start.kind} move ${i}`).toEqual(step[start.kind](frames[i - 1].state as never, frames[i].move!));
      }
      expect(puzzles[start.kind].isSolved(frames.at(-1)!.state as never)).toBe(true);
    }
  });

  it('with --every k takes every k-th position plus the last, the same states as stepping one by one', () => {
    for (const { start, moves } of cases()) {
      const one = allFrames(start, moves).frames;
      for (const k of [2, 3, 7, 1000]) {
        const { frames } = allFrames(start, moves, { every: k });
        const want = one.filter((f) => f.index % k === 0 || f.index === one.length - 1).map((f) => ({ index: f.index, state: f.state }));
        expect(frames.map((f) => ({ index: f.index, state: f.state })), `${start.kind} every ${k}`).toEqual(want);
      }
    }
  });

  it('streamFrames - the same frames and outcome from pieces cut anywhere, even inside a move, as from the whole answer', async () => {
    for (const { start, moves } of cases()) {
      for (const cut of [1, 3, 7, 50]) {
        for (const every of [1, 4]) {
          const want = allFrames(start, moves, { every });
          const gen = streamFrames(start, piecesOf(moves, cut), { every });
          const frames = [];
          let r = await gen.next();
          for (; !r.done; r = await gen.next()) frames.push(r.value);
          expect(frames, `${start.kind} cut ${cut} every ${every}`).toEqual(want.frames);
          expect(r.value).toEqual(want.outcome);
        }
      }
    }
  });

  it('openStoredAnswer - seeks to any move from checkpoints that read on from their piece, the states of a whole replay', async () => {
    const tower: HanoiState = { kind: 'hanoi', pegs: 3, start: 'A'.repeat(12), goal: 'C'.repeat(12) };
    for (const { start, moves } of [...cases(), { start: tower, moves: joined(solveHanoiRecursive(tower)) }]) {
      const want = allFrames(start, moves).frames;
      const opened: number[] = [];
      const source = (from: number) => {
        opened.push(from);
        return piecesOf(moves, 5, from);
      };
      const handle = await openStoredAnswer(start, source, { match: 1, scramble: 1, bot: 'x', puzzleClass: 'c', verdict: 'solved', recordedMoves: want.length - 1 });
      expect(handle.info.legalMoves).toBe(want.length - 1);
      for (const k of [0, 1, 2, Math.floor(want.length / 2), want.length - 2, want.length - 1, want.length + 5]) {
        const f = await handle.seek(k);
        const i = Math.min(k, want.length - 1);
        expect(f.index).toBe(i);
        expect(f.state, `${start.kind} seek ${k}`).toEqual(want[i].state);
      }
      // A long answer (4,095 moves, checkpoints every 16) is sought from a later piece, not from its beginning.
      if (start === tower) expect(Math.max(...opened)).toBeGreaterThan(100);
    }
  });

  it('reports moves that no longer solve the scramble: an illegal move with its index, or an unsolved end', () => {
    const [sl] = cases();
    const text = sl.moves as string;
    // Replace move 3 by a direction that leaves the board or undoes nothing legal: try each letter until illegal.
    const bad = ['U', 'D', 'L', 'R'].map((c) => text.slice(0, 3) + c + c + c + c + text.slice(4)).find((t) => allFrames(sl.start, t).outcome.verdict === 'invalid')!;
    const got = allFrames(sl.start, bad);
    expect(got.outcome.verdict).toBe('invalid');
    if (got.outcome.verdict === 'invalid') expect(got.outcome.reason).toMatch(/move/);
    expect(got.frames.at(-1)!.index).toBe(got.outcome.moves);
    const short = allFrames(sl.start, text.slice(0, -1));
    expect(short.outcome).toMatchObject({ verdict: 'invalid', reason: 'not solved after the last move' });
  });

  it('steps a 24-disc tower (16,777,215 moves) every million moves without a frame per move', () => {
    const start: HanoiState = { kind: 'hanoi', pegs: 3, start: 'A'.repeat(24), goal: 'C'.repeat(24) };
    const moves = joined(solveHanoiRecursive(start)) as string;
    const gen = replayFrames(start, moves, { every: 1_000_000 });
    let frames = 0;
    let r = gen.next();
    for (; !r.done; r = gen.next()) frames++;
    expect(frames).toBe(18); // start, 16 millions, the last position
    expect(r.value).toEqual({ verdict: 'solved', moves: 16_777_215 });
  });
});

describe('board renderers', () => {
  it('draw every kind in lines of equal width, marking what the last move changed', () => {
    for (const { start, moves } of cases()) {
      const { frames } = allFrames(start, moves);
      const p = puzzles[start.kind];
      const lines = p.render(frames[1].state as never, { previous: frames[0].state as never });
      expect(new Set(lines.map((l) => l.length)).size, start.kind).toBe(1);
      expect(lines.join('\n'), start.kind).toMatch(/\[\s*\d+\]|#/);
      expect(p.render(frames[0].state as never).join('\n')).not.toMatch(/\[|#/);
    }
  });

  it('keep big boards inside the picture and follow the moving tile', () => {
    const rng = createRng('render big');
    const big = puzzles.sliding.scramble({ kind: 'sliding', rows: 100, cols: 100 }, rng) as SlidingState;
    const b = big.tiles.indexOf(0);
    const next = step.sliding(big as never, Math.floor(b / 100) > 0 ? 'U' : 'D') as SlidingState;
    const lines = puzzles.sliding.render(next, { previous: big, width: 60, height: 12 });
    expect(lines.length).toBeLessThanOrEqual(12);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(60);
    expect(lines[0]).toMatch(/^rows \d+-\d+ of 100, columns \d+-\d+ of 100/);
    expect(lines.join('\n')).toMatch(/\[\s*\d+\]/);
    const tower = puzzles.hanoi.render({ kind: 'hanoi', pegs: 3, start: 'A'.repeat(24), goal: 'C'.repeat(24) });
    expect(tower[0]).toMatch(/^A: 24 23 22 .* 1\s*$/);
    expect(tower.length).toBe(4);
  });

  it('draw a small Hanoi position to scale with the goal underneath', () => {
    const lines = puzzles.hanoi.render({ kind: 'hanoi', pegs: 3, start: 'ABB', goal: 'CCC' }, { previous: { kind: 'hanoi', pegs: 3, start: 'CBB', goal: 'CCC' } });
    expect(lines.map((l) => l.trimEnd())).toEqual([
      '    |        |        |',
      '    |      (===)      |',
      '   (#)    (=====)     |',
      '    A        B        C',
      'goal CCC',
    ]);
  });
});
