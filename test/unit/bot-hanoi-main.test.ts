import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import { hanoi } from '../../src/puzzles/hanoi.ts';

// Test plumbing only: the messages are checked loosely, the protocol has its own tests.
/** Runs a bot's main.ts in stdio mode, sends `puzzles` one at a time, collects every answer, then says bye. */
function askBot(main: string, puzzles: PuzzleState[], maxMoves = 1e8): Promise<{ hello: any; answers: any[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(main)], { env: { ...process.env, ARENA_STDIO: '1' } });
  const send = (m: object): void => void child.stdin.write(JSON.stringify(m) + '\n');
  const answers: any[] = [];
  let hello: any;
  let moves: any = null;
  const next = (): void => {
    const i = answers.length;
    if (i === puzzles.length) return send({ type: 'bye' });
    moves = puzzles[i].kind === 'swaps' ? [] : '';
    send({ type: 'solve', id: String(i), puzzle: puzzles[i], timeLimitMs: 30_000, maxMoves });
  };
  createInterface({ input: child.stdout }).on('line', (line) => {
    const m = JSON.parse(line);
    if (m.type === 'hello') {
      hello = m;
      send({ type: 'welcome', protocol: 1, session: 's', limits: { maxPayload: 4 * 1024 * 1024 } });
      return next();
    }
    if (m.type === 'moves') {
      moves = typeof moves === 'string' ? moves + m.moves : moves.concat(m.moves);
      if (!m.final) return;
      answers.push({ moves, info: m.info });
    } else answers.push(m);
    next();
  });
  return new Promise((res) => child.on('close', () => res({ hello, answers })));
}

describe('hanoi bots main', () => {
  const puzzles: PuzzleState[] = [
    { kind: 'hanoi', pegs: 3, start: 'BBAA', goal: 'AABA' },
    { kind: 'hanoi', pegs: 3, start: 'A'.repeat(20), goal: 'B'.repeat(20) },
    { kind: 'swaps', rows: 1, cols: 2, tiles: [2, 1] },
  ];

  it('hanoi-recursive streams optimal answers over stdio, 20 discs in chunks', async () => {
    const { hello, answers } = await askBot('bots/hanoi-recursive/main.ts', puzzles);
    expect(hello).toMatchObject({ name: 'hanoi-recursive', capabilities: [{ kind: 'hanoi', maxSize: 24 }] });
    expect(answers[0].moves).toHaveLength(10);
    expect(hanoi.replay(puzzles[0] as never, answers[0].moves).verdict).toBe('solved');
    expect(hanoi.replay(puzzles[1] as never, answers[1].moves)).toEqual({ verdict: 'solved', moves: 2 ** 20 - 1 });
    expect(answers[1].info).toMatchObject({ optimal: true });
    expect(answers[2]).toMatchObject({ type: 'unsupported' });
  });

  it('hanoi-iterative declines a non-tower start and streams a tower over stdio', async () => {
    const { hello, answers } = await askBot('bots/hanoi-iterative/main.ts', puzzles);
    expect(hello).toMatchObject({ name: 'hanoi-iterative' });
    expect(answers[0]).toMatchObject({ type: 'unsupported' });
    expect(hanoi.replay(puzzles[1] as never, answers[1].moves)).toEqual({ verdict: 'solved', moves: 2 ** 20 - 1 });
    expect(answers[2]).toMatchObject({ type: 'unsupported' });
  });
});
