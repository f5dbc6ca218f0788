import { describe, expect, it } from 'vitest';
import { runResumedMatch, startGeneratedMatch, runNewMatch, type MatchDeps, type ResultEvent } from '../../src/referee/run-match.ts';
import { checkScrambleSize, scrambleBytes } from '../../src/referee/scrambles/scramble-batches.ts';
import { generateScrambles } from '../../src/referee/scrambles/scrambles.ts';
import { dropOnSolve, replyWith, ScriptedLauncher, silent, type ConnectPlan } from '../helpers/scripted-link.ts';
import { answers, config, harness, solve, states } from '../helpers/match-harness.ts';
import { FakeClock } from '../helpers/fake-clock.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import type { Store } from '../../src/store/types.ts';

// Whole matches in-process: memory store, scripted bots, fake clock. No process starts and no real time
// passes, so time-outs of seconds and aborts at an exact moment are cheap and deterministic.


describe('runMatch in-process', () => {
  it('runMatch - every (scramble, bot) gets exactly one result; which bot goes first rotates per scramble', async () => {
    const h = harness({ a: answers, b: answers });
    const run = await h.clock.run(runNewMatch(config(['a', 'b']), states, h.deps()));
    expect(run.status).toBe('finished');
    const rows = await h.store.listResults(run.match.id);
    expect(rows).toHaveLength(2 * states.length);
    expect(new Set(rows.map((r) => `${r.scrambleIndex}/${r.bot}`)).size).toBe(rows.length);
    expect(rows.every((r) => r.verdict === 'solved' && r.wallMs === 10)).toBe(true);
    expect(h.events.map((e) => `${e.scrambleIndex}${e.bot}`)).toEqual(['0a', '0b', '1b', '1a', '2a', '2b', '3b', '3a', '4a', '4b', '5b', '5a']);
    expect(h.events.map((e) => e.done)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    // One bot process each for the whole match, told bye at the end.
    expect(h.launchers.map((l) => [l.name, l.connects, l.disposed])).toEqual([
      ['a', 1, true],
      ['b', 1, true],
    ]);
    expect(h.launchers.every((l) => l.links[0].closed)).toBe(true);
  });

  it('runMatch - a crashed bot is restarted for its next scramble; the crash is charged to one scramble', async () => {
    const h = harness({ a: (attempt) => (attempt === 0 ? [answers(), dropOnSolve('segfault')] : answers()) });
    const run = await h.clock.run(runNewMatch(config(['a']), states, h.deps()));
    const rows = await h.store.listResults(run.match.id);
    expect(rows.map((r) => r.verdict)).toEqual(['solved', 'crash', 'solved', 'solved', 'solved', 'solved']);
    expect(rows[1].error).toBe('segfault');
    expect(h.launchers[0].connects).toBe(2);
  });

  it('runMatch - a time-out closes the link and the next scramble gets a fresh bot', async () => {
    const h = harness({ a: (attempt) => (attempt === 0 ? silent : answers()) });
    const run = await h.clock.run(runNewMatch(config(['a'], { timeLimitMs: 5000 }), states.slice(0, 2), h.deps()));
    const rows = await h.store.listResults(run.match.id);
    expect(rows.map((r) => [r.verdict, r.wallMs])).toEqual([
      ['timeout', 5000],
      ['solved', 10],
    ]);
    const [first, second] = h.launchers[0].links;
    expect(first.closeReason).toBe('timed out');
    expect(first.sent.map((m) => m.type)).toEqual(['solve', 'cancel', 'result', 'bye']);
    expect(second.sentOf('solve')).toHaveLength(1);
  });

  it('runMatch - a bot that cannot start gets crash with the reason', async () => {
    const h = harness({ a: () => ({ fail: 'no such file: ./bot' }) });
    const run = await h.clock.run(runNewMatch(config(['a']), states.slice(0, 1), h.deps()));
    const [row] = await h.store.listResults(run.match.id);
    expect(row).toMatchObject({ verdict: 'crash', moveCount: 0 });
    expect(row.error).toMatch(/could not start: no such file/);
  });

  it('runMatch - a bot that fails to start twice in a row is not started again: its other scrambles are crash at once', async () => {
    const h = harness({ a: () => ({ fail: 'exec format error' }), b: answers });
    const run = await h.clock.run(runNewMatch(config(['a', 'b']), states, h.deps()));
    const rows = (await h.store.listResults(run.match.id)).filter((r) => r.bot === 'a');
    expect(rows.map((r) => r.error)).toEqual([
      'could not start: exec format error',
      'could not start: exec format error',
      ...Array(4).fill('not started again: it failed to start 2 times in a row (exec format error)'),
    ]);
    expect(rows.every((r) => r.verdict === 'crash')).toBe(true);
    expect(h.launchers.find((l) => l.name === 'a')!.connects).toBe(2);
    expect(run.blocked).toEqual([{ bot: 'a', reason: 'exec format error', charged: 4, attempts: 2 }]);
    // The other bot is untouched by it.
    expect((await h.store.listResults(run.match.id)).filter((r) => r.bot === 'b').every((r) => r.verdict === 'solved')).toBe(true);
  });

  it('runMatch - start failures count only in a row, and the start timeout follows the time limit', async () => {
    const timeouts: number[] = [];
    const plan = (attempt: number): ConnectPlan => (attempt % 2 === 0 ? { fail: 'flaky' } : [answers(), dropOnSolve()]);
    const h = harness({ a: plan });
    const deps = h.deps();
    const run = await h.clock.run(
      runNewMatch(config(['a'], { timeLimitMs: 45_000 }), states, {
        ...deps,
        makeLauncher: (bot, opts) => {
          timeouts.push(opts.startTimeoutMs);
          return deps.makeLauncher(bot, opts);
        },
      }),
    );
    expect(run.blocked).toEqual([]);
    expect(timeouts).toEqual([90_000]);
    const verdicts = (await h.store.listResults(run.match.id)).map((r) => r.verdict);
    expect(verdicts).toEqual(['crash', 'solved', 'crash', 'crash', 'solved', 'crash']);
  });

  it('runMatch - a declared capability gap is unsupported without a solve being sent', async () => {
    const clock = new FakeClock();
    const store = createMemoryStore();
    const launchers: ScriptedLauncher[] = [];
    const run = await clock.run(
      runNewMatch(config(['small']), states.slice(0, 1), {
        store,
        clock,
        makeLauncher: (bot) => {
          const l = new ScriptedLauncher(bot, answers, { clock, capabilities: [{ kind: 'sliding', maxSize: 2 }] });
          launchers.push(l);
          return l;
        },
      }),
    );
    const [row] = await store.listResults(run.match.id);
    expect(row.verdict).toBe('unsupported');
    expect(row.error).toMatch(/up to size 2; this scramble has size 3 \(sliding 3x3\)/);
    expect(launchers[0].links[0].sentOf('solve')).toEqual([]);
  });

  it('runMatch - parallel workers each hold their own bots and never play a job twice', async () => {
    const h = harness({ a: answers, b: () => replyWith(solve, { delayMs: 35 }) });
    const run = await h.clock.run(runNewMatch(config(['a', 'b'], { concurrency: 3 }), states, h.deps()));
    expect(run.status).toBe('finished');
    const rows = await h.store.listResults(run.match.id);
    expect(new Set(rows.map((r) => `${r.scrambleIndex}/${r.bot}`)).size).toBe(12);
    expect(rows).toHaveLength(12);
    // Three workers, each with its own launcher per bot it met: no link carried two requests at once.
    for (const l of h.launchers) for (const link of l.links) expect(link.sentOf('solve').length).toBeGreaterThan(0);
    expect(h.launchers.length).toBeGreaterThanOrEqual(3);
    expect(h.launchers.length).toBeLessThanOrEqual(6);
  });

  it('runMatch - abort mid-match records nothing for the request in flight, and resume plays only what is missing', async () => {
    const h = harness({ a: answers, b: () => replyWith(solve, { delayMs: 400 }) });
    const stop = new AbortController();
    const first = runNewMatch(config(['a', 'b']), states, h.deps({ signal: stop.signal }));
    // Results land at t = 10 (0a), 410 (0b), 810 (1b), 820 (1a), 830 (2a); abort while 2b is being answered.
    await h.clock.advance(1000);
    stop.abort();
    const run = await h.clock.run(first);
    expect(run.status).toBe('interrupted');
    expect((await h.store.getMatch(run.match.id))?.status).toBe('interrupted');
    const before = await h.store.listResults(run.match.id);
    expect(before.map((r) => `${r.scrambleIndex}${r.bot}`)).toEqual(['0a', '0b', '1b', '1a', '2a']);
    const inFlight = h.launchers.find((l) => l.name === 'b')!.links[0];
    expect(inFlight.sent.map((m) => m.type).slice(-2)).toEqual(['cancel', 'bye']);

    const again = harness({ a: answers, b: answers }, h.store);
    const resumed = await again.clock.run(runResumedMatch(run.match.id, again.deps()));
    expect(resumed.ok && resumed.value.status).toBe('finished');
    const after = await h.store.listResults(run.match.id);
    expect(after).toHaveLength(12);
    for (const r of before) expect(after.find((x) => x.scrambleId === r.scrambleId && x.bot === r.bot)).toEqual(r);
    // Only the 7 missing jobs were played, and progress counts on from what was already there.
    const solves = again.launchers.flatMap((l) => l.links.flatMap((link) => link.sentOf('solve')));
    expect(solves).toHaveLength(7);
    expect(again.events.map((e) => e.done)).toEqual([6, 7, 8, 9, 10, 11, 12]);
  });

  it('runResumedMatch - unknown, finished and scramble-less matches are clear rejections', async () => {
    const h = harness({ a: answers });
    expect(await runResumedMatch(99, h.deps())).toMatchObject({ ok: false, reason: 'no match with id 99' });
    const run = await h.clock.run(runNewMatch(config(['a']), states.slice(0, 1), h.deps()));
    expect(await runResumedMatch(run.match.id, h.deps())).toMatchObject({ ok: false, reason: `match ${run.match.id} is already finished` });

    // A match stored without scrambles (only an older version killed mid-creation could leave one).
    const legacy = new Proxy(h.store, {
      get: (target, key) => (key === 'listScrambles' ? async () => [] : Reflect.get(target, key, target)),
    });
    await h.store.setMatchStatus(run.match.id, 'interrupted');
    const r = await runResumedMatch(run.match.id, { ...h.deps(), store: legacy });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/has no scrambles/);
  });

  it('startGeneratedMatch - stores scrambles batch by batch as play reaches them, the same ones as all at once', async () => {
    const spec = { kind: 'sliding', rows: 3, cols: 3 } as const;
    const cfg = { ...config(['a']), spec, count: 7, seed: 'batches' };
    const all = generateScrambles(spec, 7, 'batches');
    if (!all.ok) throw new Error(all.reason);
    const batchBytes = 3 * scrambleBytes(all.value[0]) + 2; // three 3x3 boards per batch
    // A bot that gives up after 10 ms, so that each play takes time, as a real one does.
    const h = harness({ a: () => (req, bot) => bot.send({ type: 'give-up', id: req.id, reason: 'too hard' }, 10) });
    const storedAt: number[] = [];
    const stop = new AbortController();
    const deps = h.deps({
      scrambleBatchBytes: batchBytes,
      signal: stop.signal,
      onResult: (e) => {
        h.events.push(e);
        if (e.done === 4) stop.abort();
      },
    });
    const first = await h.clock.run(startGeneratedMatch(cfg, { ...deps, store: watch(h.store, storedAt) }));
    if (!first.ok) throw new Error(first.reason);
    expect(first.value.status).toBe('interrupted');
    // Scrambles stored when each result was committed (just after the next play began): the second batch
    // only once play reached it, which is one play early, as the player takes its next job while it plays one.
    expect(storedAt).toEqual([3, 6, 6, 6]);
    const resumed = await h.clock.run(runResumedMatch(first.value.match.id, { ...h.deps({ scrambleBatchBytes: batchBytes }), store: watch(h.store, storedAt) }));
    expect(resumed.ok && resumed.value.status).toBe('finished');
    expect(storedAt.slice(4)).toEqual([7, 7, 7]);
    const stored = await h.store.listScrambles(first.value.match.id);
    expect(stored.map((x) => x.state)).toEqual(all.value);
    expect(await h.store.listResults(first.value.match.id)).toHaveLength(7);
  });

  it('checkScrambleSize - refuses a scramble bigger than a bot must accept, with both numbers', () => {
    const big = { kind: 'swaps', rows: 300, cols: 300, tiles: Array.from({ length: 90_000 }, (_, i) => i + 1) } as const;
    expect(checkScrambleSize(big).ok).toBe(true);
    expect(checkScrambleSize(big, 100_000)).toMatchObject({ ok: false, reason: expect.stringMatching(/swaps 300x300 scramble is 0\.5 MiB of JSON; a scramble may be at most 0\.1 MiB/) });
  });
});

/** A store that notes how many scrambles match 1 (the harness's only match) holds each time a result is recorded. */
function watch(store: Store, counts: number[]): Store {
  return new Proxy(store, {
    get(target, key) {
      if (key !== 'recordResult') return Reflect.get(target, key, target);
      return async (r: Parameters<Store['recordResult']>[0]) => {
        await target.recordResult(r);
        counts.push((await target.listScrambles(1)).length);
      };
    },
  });
}
