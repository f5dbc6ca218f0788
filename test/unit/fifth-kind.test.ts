import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PuzzleState } from '../../src/core/types.ts';
import type { Capability } from '../../src/protocol/messages.ts';
import { getPuzzle, parseState, registerPuzzle } from '../../src/puzzles/index.ts';
import { buildMatchReport } from '../../src/referee/match-report.ts';
import { runNewMatch } from '../../src/referee/run-match.ts';
import { generateScrambles } from '../../src/referee/scrambles/scrambles.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { flip, FLIP_MAX, FLIP_MIN, type FlipState, lampMask, pressMask } from '../helpers/flip-kind.ts';
import { replyWith, ScriptedLauncher, type SolveScript } from '../helpers/scripted-link.ts';

// A kind the project does not have, defined in test/helpers/flip-kind.ts and registered here only: the
// referee, the scramble generator, the store and the scoring handle it without a line about it outside
// its own file. registerPuzzle is the way in, since those layers find kinds by name in the registry.

/** Independent oracle: breadth-first search over presses from the all-off row; parent links give a shortest answer. */
function bfs(n: number): { dist: Int16Array; press: Int8Array; from: Int32Array } {
  const size = 1 << n;
  const dist = new Int16Array(size).fill(-1);
  const press = new Int8Array(size).fill(-1);
  const from = new Int32Array(size).fill(-1);
  dist[0] = 0;
  const queue = [0];
  for (let q = 0; q < queue.length; q++) {
    const m = queue[q]!;
    for (let i = 0; i < n; i++) {
      const next = m ^ pressMask(i, n);
      if (dist[next] !== -1) continue;
      dist[next] = dist[m]! + 1;
      press[next] = i;
      from[next] = m;
      queue.push(next);
    }
  }
  return { dist, press, from };
}

const tables = new Map<number, ReturnType<typeof bfs>>();
function table(n: number) {
  if (!tables.has(n)) tables.set(n, bfs(n));
  return tables.get(n)!;
}

/** A shortest answer by BFS: the presses that led from the goal to the state, which undo themselves. */
function shortest(state: PuzzleState): string {
  const lamps = (state as unknown as FlipState).lamps;
  const t = table(lamps.length);
  let out = '';
  for (let m = lampMask(lamps); m !== 0; m = t.from[m]!) out += String(t.press[m]);
  return out;
}

/** A test kind's states travel typed as built-in ones (see registerPuzzle). */
const asStates = (states: readonly FlipState[]) => states as unknown as PuzzleState[];
const flipCapability = (maxSize?: number) => [{ kind: 'flip', ...(maxSize !== undefined ? { maxSize } : {}) } as unknown as Capability];

let unregister: () => void;
beforeAll(() => {
  unregister = registerPuzzle(flip);
});
afterAll(() => unregister());

describe('fifth kind - a puzzle registered only in a test', () => {
  it('flip - the optimum it reports is the BFS distance of every solvable row; unsolvable rows are refused', () => {
    for (let n = FLIP_MIN; n <= FLIP_MAX; n++) {
      const { dist } = table(n);
      let solvable = 0;
      for (let m = 0; m < 1 << n; m++) {
        let lamps = '';
        for (let i = 0; i < n; i++) lamps += m & (1 << i) ? '1' : '0';
        const parsed = flip.parse({ kind: 'flip', lamps });
        if (dist[m] === -1) {
          expect(parsed.ok, `row ${lamps}`).toBe(false);
          continue;
        }
        solvable++;
        expect(parsed.ok).toBe(true);
        expect(flip.bound({ kind: 'flip', lamps })).toEqual({ optimal: dist[m], lowerBound: dist[m] });
        expect(flip.replay({ kind: 'flip', lamps }, shortest({ kind: 'flip', lamps } as never))).toEqual({ verdict: 'solved', moves: dist[m] });
      }
      // Pressing is linear over GF(2): all 2^n rows are solvable unless n ≡ 2 (mod 3), then exactly half.
      expect(solvable).toBe(n % 3 === 2 ? 1 << (n - 1) : 1 << n);
    }
  });

  it('registry - the kind is found by name and its states parse through the one dispatcher', () => {
    expect(getPuzzle('flip')).toMatchObject({ ok: true, value: { kind: 'flip' } });
    expect(parseState({ kind: 'flip', lamps: '0110' })).toEqual({ ok: true, value: { kind: 'flip', lamps: '0110' } });
    expect(parseState({ kind: 'flip', lamps: '01102' }).ok).toBe(false);
  });

  it('generateScrambles - seeded, replayable, parseable scrambles at least 2 presses from the goal', () => {
    const a = generateScrambles({ kind: 'flip', size: 7 }, 50, 'fifth');
    const b = generateScrambles({ kind: 'flip', size: 7 }, 50, 'fifth');
    if (!a.ok || !b.ok) throw new Error('generation failed');
    expect(a.value).toEqual(b.value);
    for (const s of a.value) {
      expect(parseState(s)).toEqual({ ok: true, value: s });
      expect(table(7).dist[lampMask((s as unknown as FlipState).lamps)]).toBeGreaterThanOrEqual(2);
    }
    expect(new Set(a.value.map((s) => JSON.stringify(s))).size).toBeGreaterThan(30);
    expect(generateScrambles({ kind: 'flip', size: 11 }, 1, 'fifth').ok).toBe(false);
  });

  it('runMatch - scripted bots answer, moves are validated, verdicts scored and stored in the in-memory store', async () => {
    const generated = generateScrambles({ kind: 'flip', size: 7 }, 6, 'fifth-match');
    if (!generated.ok) throw new Error(generated.reason);
    const states = generated.value;
    const scripts: Record<string, { script: SolveScript; caps: Capability[] }> = {
      // Shortest answers, streamed in two chunks.
      optimal: { script: replyWith(shortest, { chunks: 2, delayMs: 5 }), caps: flipCapability() },
      // Legal but two presses longer: pressing lamp 0 twice changes nothing.
      padded: { script: replyWith((s) => shortest(s) + '00', { delayMs: 5 }), caps: flipCapability() },
      // One good press, then a lamp the row does not have.
      cheater: { script: replyWith((s) => shortest(s).slice(0, 1) + '9', { delayMs: 5 }), caps: flipCapability() },
      // Declares flip only up to 5 lamps: every 7-lamp scramble is outside its capabilities.
      small: { script: replyWith(shortest), caps: flipCapability(5) },
    };
    const clock = new FakeClock();
    const store = createMemoryStore();
    const bots = Object.keys(scripts);
    const run = await clock.run(
      runNewMatch({ bots, count: states.length, seed: 'fifth-match', timeLimitMs: 1000, maxMoves: 100, concurrency: 1 }, states, {
        store,
        clock,
        makeLauncher: (bot) => new ScriptedLauncher(bot, () => scripts[bot]!.script, { clock, capabilities: scripts[bot]!.caps }),
      }),
    );
    expect(run.status).toBe('finished');

    const scrambles = await store.listScrambles(run.match.id);
    expect(scrambles.map((s) => s.state)).toEqual(states);
    for (const s of scrambles) {
      expect(s.puzzleClass).toBe('flip 7');
      expect(s.bound.optimal).toBe(table(7).dist[lampMask((s.state as unknown as FlipState).lamps)]);
    }

    const rows = await store.listResults(run.match.id);
    expect(rows).toHaveLength(bots.length * states.length);
    const of = (bot: string) => rows.filter((r) => r.bot === bot).sort((p, q) => p.scrambleIndex - q.scrambleIndex);
    of('optimal').forEach((r, i) => {
      expect([r.verdict, r.moveCount, r.moves]).toEqual(['solved', scrambles[i]!.bound.optimal, shortest(states[i]!)]);
    });
    of('padded').forEach((r, i) => expect([r.verdict, r.moveCount]).toEqual(['solved', scrambles[i]!.bound.optimal! + 2]));
    for (const r of of('cheater')) {
      expect([r.verdict, r.moveCount, r.errorIndex]).toEqual(['invalid', 1, 1]);
      expect(r.error).toMatch(/no lamp "9" in a row of 7/);
    }
    for (const r of of('small')) {
      expect(r.verdict).toBe('unsupported');
      expect(r.error).toMatch(/up to size 5; this scramble has size 7/);
    }

    const report = buildMatchReport(run.match, await store.listScrambles(run.match.id), await store.listSummaries(run.match.id));
    expect(report.match.puzzleClasses).toEqual(['flip 7']);
    const pair = (a: string, b: string) => report.summary.pairs.find((p) => p.a === a && p.b === b)!;
    expect(pair('optimal', 'padded')).toMatchObject({ wins: 6, draws: 0, losses: 0 });
    expect(pair('optimal', 'cheater')).toMatchObject({ wins: 6, draws: 0, losses: 0 });
    expect(pair('padded', 'small')).toMatchObject({ wins: 6, draws: 0, losses: 0 });
    expect(pair('cheater', 'small')).toMatchObject({ wins: 0, draws: 6, losses: 0 });
    expect(report.summary.bots.optimal).toMatchObject({ solved: 6, optimalSolves: 6, meanGap: 0 });
    expect(report.summary.bots.padded).toMatchObject({ solved: 6, optimalSolves: 0, meanGap: 2 });
  });
});
