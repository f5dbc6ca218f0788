import { describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { runResumedMatch, runNewMatch, type MatchDeps } from '../../src/referee/run-match.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import type { Store } from '../../src/store/types.ts';
import { slidingBoard } from '../helpers/boards.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { replyWith, ScriptedLauncher } from '../helpers/scripted-link.ts';

// The store refuses a write mid-match (a full disk): the match stops there as an abort would, every
// worker's bots are closed, nothing in flight is recorded, and a resume once the store takes writes again
// plays exactly what is missing, even when marking the match interrupted failed too (it stays running).

const boards = ['LU', 'LLUR', 'ULDR', 'LLUURD', 'UULDRD', 'LURDLU', 'ULDRUL', 'LLURDR'].map((p) => slidingBoard(3, 3, p));
const states: PuzzleState[] = boards.map((b) => b.state);
const solve = (s: PuzzleState) => boards.find((b) => JSON.stringify(b.state) === JSON.stringify(s))!.solution;

/** A memory store that, while `full`, refuses results after `room` more, and (if `markFails`) status changes. */
function fillingStore(room: number, markFails: boolean) {
  const inner = createMemoryStore();
  const state = { full: true, room };
  const store: Store = Object.create(inner);
  store.recordResult = async (r) => {
    if (state.full && state.room-- <= 0) throw new Error('database or disk is full');
    return inner.recordResult(r);
  };
  store.setMatchStatus = async (id, status) => {
    if (state.full && markFails && state.room < 0) throw new Error('database or disk is full');
    return inner.setMatchStatus(id, status);
  };
  return { store, state };
}

function deps(store: Store, clock: FakeClock, launchers: ScriptedLauncher[]): MatchDeps {
  return {
    store,
    clock,
    makeLauncher: (bot) => {
      const l = new ScriptedLauncher(bot, () => replyWith(solve, { delayMs: bot === 'a' ? 10 : 15 }), { clock });
      launchers.push(l);
      return l;
    },
  };
}

const config: MatchConfig = { bots: ['a', 'b'], count: states.length, seed: 'unit', timeLimitMs: 1000, maxMoves: 100, concurrency: 2 };

describe('store failure - a write refused mid-match', () => {
  for (const markFails of [false, true]) {
    it(`store failure - stops the match, keeps what was recorded, and a resume finishes it once (${markFails ? 'the mark fails too: left running' : 'marked interrupted'})`, async () => {
      const clock = new FakeClock();
      const { store, state } = fillingStore(5, markFails);
      const launchers: ScriptedLauncher[] = [];
      const run = await clock.run(runNewMatch(config, states, deps(store, clock, launchers)));
      expect(run.status).toBe('interrupted');
      expect(run.storeError).toBe('database or disk is full');
      const kept = await store.listResults(run.match.id);
      expect(kept).toHaveLength(5);
      expect((await store.getMatch(run.match.id))!.status).toBe(markFails ? 'running' : 'interrupted');
      // Every bot of every worker was closed: nothing keeps playing after the match stopped.
      expect(launchers.length).toBeGreaterThanOrEqual(2);
      expect(launchers.every((l) => l.links.every((k) => k.closed))).toBe(true);

      state.full = false;
      const resumed = await clock.run(runResumedMatch(run.match.id, deps(store, clock, [])));
      expect(resumed.ok && resumed.value.status).toBe('finished');
      const all = await store.listResults(run.match.id);
      expect(all).toHaveLength(states.length * 2);
      expect(new Set(all.map((r) => `${r.scrambleId}/${r.bot}`)).size).toBe(all.length);
      for (const k of kept) expect(all.find((r) => r.scrambleId === k.scrambleId && r.bot === k.bot)!.wallMs).toBe(k.wallMs);
    });
  }

  it('store failure - a bug elsewhere is still thrown, not taken for a full disk', async () => {
    const clock = new FakeClock();
    const store = createMemoryStore();
    const d: MatchDeps = { ...deps(store, clock, []), makeLauncher: () => { throw new TypeError('a bug'); } };
    await expect(clock.run(runNewMatch(config, states, d))).rejects.toThrow('a bug');
  });
});
