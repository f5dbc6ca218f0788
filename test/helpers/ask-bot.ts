import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { PuzzleState } from '../../src/core/types.ts';

// Test plumbing only: the messages are checked loosely, the protocol has its own tests.
/** Runs a bot's main.ts in stdio mode, sends `puzzles` one at a time, collects every answer, then says bye. */
export function askBot(main: string, puzzles: PuzzleState[], maxMoves = 1e8): Promise<{ hello: any; answers: any[] }> {
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

