import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng.ts';
import type { PuzzleState } from '../../src/core/types.ts';
import type { MatchConfig } from '../../src/referee/match-config.ts';
import { prepareMatch } from '../../src/app/matches/matches.ts';
import { parseMatchConfig } from '../../src/referee/match-config.ts';
import { runResumedMatch, runNewMatch, type MatchDeps } from '../../src/referee/run-match.ts';
import { warmUpScramble, WarmUps } from '../../src/referee/warm-up.ts';
import { allPuzzles, puzzleOf } from '../../src/puzzles/index.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { slidingBoard } from '../helpers/boards.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { dropOnSolve, giveUp, malformedOnSolve, replyWith, ScriptedLauncher, ScriptedLink, silent, type ConnectPlan, type SolveScript } from '../helpers/scripted-link.ts';

// The untimed warm-up solve: a throwaway scramble of the class before a bot's first timed one, on each
// connection, never recorded.

const boards = ['LU', 'LLUR', 'ULDR'].map((p) => slidingBoard(3, 3, p));
const states: PuzzleState[] = boards.map((b) => b.state);
const known = (s: PuzzleState) => boards.find((b) => JSON.stringify(b.state) === JSON.stringify(s))?.solution;
/** Solves the known boards; anything else (the throwaway) gets a wrong answer, which costs nothing. */
const answers = (): SolveScript => replyWith((s) => known(s) ?? 'U', { delayMs: 10 });
const isKnown = (s: PuzzleState) => known(s) !== undefined;

function config(o: Partial<MatchConfig> = {}): MatchConfig {
  return { bots: ['a'], count: states.length, seed: 'unit', timeLimitMs: 1000, maxMoves: 100, concurrency: 1, ...o };
}

function harness(plan: (attempt: number) => ConnectPlan, store = createMemoryStore()) {
  const clock = new FakeClock();
  const launchers: ScriptedLauncher[] = [];
  const deps: MatchDeps = {
    store,
    clock,
    makeLauncher: (bot) => {
      const l = new ScriptedLauncher(bot, plan, { clock });
      launchers.push(l);
      return l;
    },
  };
  return { clock, store, launchers, deps };
}

describe('warm-up solve', () => {
  it('warm-up - the throwaway is of the same class, the same every time, and never the scramble about to be played', () => {
    const rng = createRng('warm-up test');
    for (const puzzle of allPuzzles()) {
      for (const spec of [...puzzle.compliance.specs, puzzle.defaultSpec]) {
        const norm = puzzle.normalizeSpec(spec);
        expect(norm.ok).toBe(true);
        if (!norm.ok) continue;
        for (let i = 0; i < 20; i++) {
          const state = puzzle.scramble(norm.value, rng);
          const throwaway = warmUpScramble(state)!;
          expect(puzzleOf(throwaway).className(throwaway)).toBe(puzzle.className(state));
          expect(JSON.stringify(throwaway)).not.toBe(JSON.stringify(state));
          expect(warmUpScramble(state)).toEqual(throwaway);
        }
      }
    }
    // On a class of 12 states, the throwaway is still never the scramble, whichever it is.
    const twoByTwo = puzzleOf(states[0]!).normalizeSpec({ kind: 'sliding', size: 2 });
    for (let i = 0; i < 200 && twoByTwo.ok; i++) {
      const s = puzzleOf(states[0]!).scramble(twoByTwo.value, rng);
      expect(JSON.stringify(warmUpScramble(s))).not.toBe(JSON.stringify(s));
    }
  });

  it('warm-up - one throwaway solve per class and connection, after the prepare; a wrong or declined answer costs nothing', async () => {
    const clock = new FakeClock();
    const warm = new WarmUps();
    const link = new ScriptedLink([answers(), giveUp('no')], { clock, capabilities: [{ kind: 'sliding' }] });
    const job = { timeLimitMs: 60_000, maxMoves: 100 };
    for (const s of states) expect(await clock.run(warm.ensure(link, { state: s, puzzleClass: 'sliding 3x3' }, clock, undefined, 60_000, job))).toBeNull();
    expect(link.sentOf('solve')).toHaveLength(1);
    expect(isKnown(link.sentOf('solve')[0]!.puzzle)).toBe(false);
    expect(link.sentOf('solve')[0]!.timeLimitMs).toBe(60_000);
    // A new connection (a restarted bot) is warmed up again; without a job nothing is solved.
    const again = new ScriptedLink(giveUp('no'), { clock, capabilities: [{ kind: 'sliding' }] });
    expect(await clock.run(warm.ensure(again, { state: states[0]!, puzzleClass: 'sliding 3x3' }, clock, undefined, 60_000, job))).toBeNull();
    expect(again.sentOf('solve')).toHaveLength(1);
    const off = new ScriptedLink(answers(), { clock, capabilities: [{ kind: 'sliding' }] });
    expect(await clock.run(warm.ensure(off, { state: states[0]!, puzzleClass: 'sliding 3x3' }, clock))).toBeNull();
    expect(off.sent).toEqual([]);
  });

  it('warm-up - a warm-up solve that breaks the connection is charged once, and that bot is not warmed up by solving again', async () => {
    const clock = new FakeClock();
    const warm = new WarmUps();
    const job = { timeLimitMs: 60_000, maxMoves: 100 };
    const scramble = { state: states[0]!, puzzleClass: 'sliding 3x3' };
    const silentLink = new ScriptedLink(silent, { clock, capabilities: [{ kind: 'sliding' }] });
    const failed = await clock.run(warm.ensure(silentLink, scramble, clock, undefined, 60_000, job));
    expect(failed).toMatchObject({ verdict: 'timeout', linkBroken: true, wallMs: 60_000 });
    expect(failed!.error).toMatch(/^the untimed warm-up solve of a throwaway scramble: no final answer within 60000 ms/);
    const next = new ScriptedLink(answers(), { clock, capabilities: [{ kind: 'sliding' }] });
    expect(await clock.run(warm.ensure(next, scramble, clock, undefined, 60_000, job))).toBeNull();
    expect(next.sent).toEqual([]);
    const crashing = new ScriptedLink(dropOnSolve('segfault'), { clock, capabilities: [{ kind: 'sliding' }] });
    const other = await clock.run(new WarmUps().ensure(crashing, scramble, clock, undefined, 60_000, job));
    expect(other).toMatchObject({ verdict: 'crash', linkBroken: true });
    const hostile = new ScriptedLink(malformedOnSolve('not valid JSON'), { clock, capabilities: [{ kind: 'sliding' }] });
    const broke = await clock.run(new WarmUps().ensure(hostile, scramble, clock, undefined, 60_000, job));
    expect(broke).toMatchObject({ verdict: 'protocol', linkBroken: true });
  });

  it('runMatch - with warm-up on, each connection solves one throwaway before its first timed scramble, and nothing of it is stored', async () => {
    // The first bot crashes on its second timed scramble: its restart is warmed up again.
    const h = harness((attempt) => (attempt === 0 ? [answers(), answers(), dropOnSolve('segfault')] : answers()));
    const run = await h.clock.run(runNewMatch(config({ warmUp: true }), states, h.deps));
    const rows = await h.store.listResults(run.match.id);
    expect(rows.map((r) => r.verdict)).toEqual(['solved', 'crash', 'solved']);
    const [first, second] = h.launchers[0]!.links;
    expect(first!.sentOf('solve').map((m) => isKnown(m.puzzle))).toEqual([false, true, true]);
    expect(second!.sentOf('solve').map((m) => isKnown(m.puzzle))).toEqual([false, true]);
    // The warm-up's answer (wrong) is not a result, and its time is not any scramble's.
    expect(rows.every((r) => r.wallMs === 10 || r.verdict === 'crash')).toBe(true);
  });

  it('runMatch - a bot that never answers its warm-up loses one scramble after the start timeout, then plays on unwarmed', async () => {
    const h = harness((attempt) => (attempt === 0 ? silent : answers()));
    const run = await h.clock.run(runNewMatch(config({ warmUp: true }), states, h.deps));
    const rows = await h.store.listResults(run.match.id);
    expect(rows.map((r) => r.verdict)).toEqual(['timeout', 'solved', 'solved']);
    // The limit is the start timeout (time limit 1 s: 10 s), not the prepare's minute.
    expect(rows[0]!.error).toBe('while preparing for sliding 3x3: the untimed warm-up solve of a throwaway scramble: no final answer within 10000 ms');
    expect(rows[0]!.wallMs).toBe(10_000);
    const [, second] = h.launchers[0]!.links;
    expect(second!.sentOf('solve').every((m) => isKnown(m.puzzle))).toBe(true);
  });

  it('runMatch - with warm-up off (or in a match stored before it existed) no throwaway is solved', async () => {
    for (const c of [config({ warmUp: false }), config()]) {
      const h = harness(() => answers());
      const run = await h.clock.run(runNewMatch(c, states, h.deps));
      expect((await h.store.listResults(run.match.id)).map((r) => r.verdict)).toEqual(['solved', 'solved', 'solved']);
      expect(h.launchers[0]!.links[0]!.sentOf('solve').every((m) => isKnown(m.puzzle))).toBe(true);
    }
  });

  it('warm-up - stored with the match: on unless --no-warm-up, and a resumed match keeps what it was started with', async () => {
    const options = { bots: ['a'], scrambles: { spec: { kind: 'sliding' as const, size: 3 }, count: 3 }, seed: '1', timeLimitMs: 1000, maxMoves: 100, concurrency: 1 };
    const on = prepareMatch(options);
    const off = prepareMatch({ ...options, warmUp: false });
    expect(on.ok && on.value.config.warmUp).toBe(true);
    expect(off.ok && off.value.config.warmUp).toBe(false);
    const stored = off.ok ? parseMatchConfig(JSON.parse(JSON.stringify(off.value.config))) : undefined;
    expect(stored?.ok && stored.value.warmUp).toBe(false);

    for (const warmUp of [true, false]) {
      const h = harness(() => answers());
      const stop = new AbortController();
      const first = runNewMatch(config({ warmUp }), states, { ...h.deps, signal: stop.signal });
      await h.clock.advance(warmUp ? 25 : 15); // the first timed result is in (after the warm-up when on)
      stop.abort();
      const run = await h.clock.run(first);
      expect(run.status).toBe('interrupted');
      const again = harness(() => answers(), h.store);
      const resumed = await again.clock.run(runResumedMatch(run.match.id, again.deps));
      expect(resumed.ok && resumed.value.status).toBe('finished');
      const sent = again.launchers[0]!.links[0]!.sentOf('solve').map((m) => isKnown(m.puzzle));
      expect(sent).toEqual(warmUp ? [false, true, true] : [true, true]);
    }
  });
});
