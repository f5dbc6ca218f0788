/**
 * Whole matches in-process for unit tests: six 3×3 boards with known solutions, a match config over them,
 * and deps whose bots follow scripts on a fake clock (memory store unless one is given).
 */
import type { PuzzleState } from '../../src/core/types.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import type { MatchDeps, ResultEvent } from '../../src/referee/run-match.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import type { Store } from '../../src/store/types.ts';
import { slidingBoard } from './boards.ts';
import { FakeClock } from './fake-clock.ts';
import { replyWith, ScriptedLauncher, type ConnectPlan } from './scripted-link.ts';

const boards = ['LU', 'LLUR', 'ULDR', 'LLUURD', 'UULDRD', 'LURDLU'].map((p) => slidingBoard(3, 3, p));
/** The boards every harness match plays, in order. */
export const states: PuzzleState[] = boards.map((b) => b.state);
/** The known solution of any of the boards above. */
export const solve = (s: PuzzleState): string => boards.find((b) => b.state === s || JSON.stringify(b.state) === JSON.stringify(s))!.solution;

/** A match of `bots` over {@link states}. */
export function config(bots: string[], o: Partial<MatchConfig> = {}): MatchConfig {
  return { bots, count: states.length, seed: 'unit', timeLimitMs: 1000, maxMoves: 100, concurrency: 1, ...o };
}

/** Deps whose launchers follow `plans[bot]`; every launcher made is kept for inspection. */
export function harness(plans: Record<string, (attempt: number) => ConnectPlan>, store: Store = createMemoryStore()) {
  const clock = new FakeClock();
  const launchers: ScriptedLauncher[] = [];
  const events: ResultEvent[] = [];
  const deps = (extra: Partial<MatchDeps> = {}): MatchDeps => ({
    store,
    clock,
    makeLauncher: (bot) => {
      const l = new ScriptedLauncher(bot, plans[bot], { clock });
      launchers.push(l);
      return l;
    },
    onResult: (e) => events.push(e),
    ...extra,
  });
  return { clock, store, launchers, events, deps };
}

/** A bot that answers every board with its known solution after 10 ms. */
export const answers = () => replyWith(solve, { delayMs: 10 });
