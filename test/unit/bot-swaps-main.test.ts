import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import { createRng, shuffleInPlace } from '../../src/core/rng.ts';
import { swaps } from '../../src/puzzles/swaps.ts';

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

describe('swaps bots main', () => {
  const rng = createRng('swaps-main');
  const big: PuzzleState = { kind: 'swaps', rows: 500, cols: 500, tiles: shuffleInPlace(Array.from({ length: 250_000 }, (_, k) => k + 1), rng) };
  const hundred: PuzzleState = { kind: 'swaps', rows: 100, cols: 100, tiles: shuffleInPlace(Array.from({ length: 10_000 }, (_, k) => k + 1), rng) };
  const small: PuzzleState = { kind: 'swaps', rows: 3, cols: 3, tiles: [3, 1, 2, 6, 4, 5, 9, 7, 8] };

  it('swaps-greedy streams n - cycles swaps over stdio, 250,000 pieces in chunks', async () => {
    const { hello, answers } = await askBot('bots/swaps-greedy/main.ts', [small, big, { kind: 'hanoi', pegs: 3, start: 'A', goal: 'B' }]);
    expect(hello).toMatchObject({ name: 'swaps-greedy', capabilities: [{ kind: 'swaps' }] });
    expect(answers[0].moves).toHaveLength(6);
    const out = swaps.replay(big as never, answers[1].moves);
    expect(out.verdict).toBe('solved');
    expect(answers[1].info).toMatchObject({ optimal: true });
    expect(answers[2]).toMatchObject({ type: 'unsupported' });
  });

  it('swaps-adjacent solves small boards and gives up past maxMoves over stdio', async () => {
    const { hello, answers } = await askBot('bots/swaps-adjacent/main.ts', [small, hundred, big], 1_000_000);
    expect(hello).toMatchObject({ name: 'swaps-adjacent', capabilities: [{ kind: 'swaps', maxSize: 10000 }] });
    expect(answers[0].moves).toHaveLength(6); // 3 rotations of 3 = 2 inversions each
    expect(swaps.replay(small as never, answers[0].moves).verdict).toBe('solved');
    expect(answers[1]).toMatchObject({ type: 'give-up' }); // ~25 million inversions
    expect(answers[1].reason).toMatch(/over the limit of 1000000/);
    expect(answers[2]).toMatchObject({ type: 'unsupported' }); // 250,000 pieces > maxSize
  });
});
