import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import { puzzleOf } from '../../src/puzzles/index.ts';
import { specOfClass } from '../../src/sdk/warm-up.ts';
import { builtinBotCommand, listBuiltinBots } from '../../src/transport/process/builtin-bots.ts';
import { ROOT } from './helpers.ts';

// Every built-in bot, as its own process over stdio: it declares the warm-up (`prepare`), answers `ready`
// for a class of its kind, and then solves a scramble of that class.

/** The classes each bot is prepared for in this test. */
const CLASSES: Record<string, string[]> = {
  backtracking: ['sliding 3x3'],
  constructive: ['sliding 3x3', 'sliding 12x12'],
  dijkstra: ['sliding 3x3'],
  'hanoi-iterative': ['hanoi 10'],
  'hanoi-recursive': ['hanoi 10 random-goal'],
  hybrid: ['sliding 3x3', 'sliding 4x4'],
  'ida-star': ['sliding 3x3', 'sliding 4x4'],
  'swaps-adjacent': ['swaps 10x10'],
  'swaps-greedy': ['swaps 10x10'],
  'warehouse-corridors': ['warehouse 16'],
  'warehouse-simple': ['warehouse 16'],
  'reference-bfs': ['sliding 2x3', 'sliding 3x3'],
  // 4×4 reads ida-star's installed tables; 5×5 would start a minutes-long table build.
  'pdb-beam': ['sliding 3x3', 'sliding 4x4'],
};

/** The time limit sent; an anytime bot searches until it, so it gets a short one. */
const LIMIT_MS: Record<string, number> = { 'pdb-beam': 2_000 };

/** Runs one bot over stdio through prepare, ready, solve and bye; what it said. */
async function session(bot: string): Promise<{ declared: boolean; readied: string[]; solved: string[]; code: number | null }> {
  const cmd = builtinBotCommand(bot, ROOT)!;
  // As the arena starts it: from its startup snapshot where the build made one (under the snapshot's flags).
  const fast = cmd.startSnapshot;
  const env = { ...process.env, ARENA_STDIO: '1', ...(fast ? { NODE_OPTIONS: fast.nodeOptions } : {}) };
  const child = spawn(cmd.command, fast?.args ?? cmd.args, { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'ignore'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => JSON.parse(String((await lines.next()).value)) as Record<string, unknown>;
  const send = (m: object): void => void child.stdin!.write(JSON.stringify(m) + '\n');
  const exited = new Promise<number | null>((res) => child.on('close', res));
  const hello = (await next()) as { capabilities: Array<{ prepare?: boolean }> };
  const declared = hello.capabilities.every((c) => c.prepare === true);
  const readied: string[] = [];
  const solved: string[] = [];
  for (const [i, puzzleClass] of CLASSES[bot]!.entries()) {
    if (declared) {
      send({ type: 'prepare', id: `p${i}`, kind: puzzleClass.split(' ')[0], puzzleClass, timeLimitMs: LIMIT_MS[bot] ?? 60_000 });
      const ready = await next();
      if (ready.type === 'ready' && ready.id === `p${i}`) readied.push(puzzleClass);
    }
    const spec = specOfClass(puzzleClass)!;
    // hanoi-iterative takes whole towers only (the seed's method).
    const state: PuzzleState =
      bot === 'hanoi-iterative' ? { kind: 'hanoi', pegs: 3, start: 'B'.repeat(spec.discs!), goal: 'C'.repeat(spec.discs!) } : puzzleOf(spec).scramble(spec, createRng(`builtin-prepare ${bot}`));
    send({ type: 'solve', id: `s${i}`, puzzle: state, timeLimitMs: LIMIT_MS[bot] ?? 60_000, maxMoves: 50_000_000 });
    const replayer = puzzleOf(state).replayer(state);
    for (;;) {
      const m = (await next()) as { type: string; moves: string | Array<[number, number]>; final: boolean };
      expect(m.type, `${bot}: ${JSON.stringify(m).slice(0, 200)}`).toBe('moves');
      expect(replayer.push(m.moves)).toBeNull();
      if (m.final) break;
    }
    if (replayer.finish().verdict === 'solved') solved.push(puzzleClass);
  }
  send({ type: 'bye' });
  child.stdin!.end();
  return { declared, readied, solved, code: await exited };
}

describe('builtin-prepare e2e - every built-in bot warms up in prepare', () => {
  it('builtin-prepare - each bot declares prepare, answers ready for its classes, then solves them', { timeout: 300_000 }, async () => {
    const bots = listBuiltinBots(ROOT);
    expect(bots.sort()).toEqual(Object.keys(CLASSES).sort());
    for (const bot of bots) {
      const out = await session(bot);
      expect({ bot, ...out }).toEqual({ bot, declared: true, readied: CLASSES[bot], solved: CLASSES[bot], code: 0 });
    }
  });
});
