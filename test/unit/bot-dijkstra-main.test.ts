import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import { sliding } from '../../src/puzzles/sliding.ts';

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

describe('dijkstra main', () => {
  it('speaks the protocol over stdio: optimal answers, unsupported for big boards and other kinds', async () => {
    const seedExample: PuzzleState = { kind: 'sliding', rows: 3, cols: 3, tiles: [4, 1, 3, 7, 0, 6, 5, 2, 8] };
    const { hello, answers } = await askBot('bots/dijkstra/main.ts', [
      seedExample,
      { kind: 'sliding', rows: 4, cols: 4, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15] },
      { kind: 'hanoi', pegs: 3, start: 'AA', goal: 'CC' },
    ]);
    expect(hello).toMatchObject({ name: 'dijkstra', version: '1.0.0', capabilities: [{ kind: 'sliding', maxSize: 10 }] });
    expect(answers[0]).toMatchObject({ moves: 'DLUURDDR', info: { optimal: true } });
    expect(sliding.replay(seedExample as never, answers[0].moves).verdict).toBe('solved');
    expect(answers[1]).toMatchObject({ type: 'unsupported', id: '1' });
    expect(answers[2]).toMatchObject({ type: 'unsupported', id: '2' });
  });
});
