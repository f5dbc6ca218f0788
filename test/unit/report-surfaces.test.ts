import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/app/context.ts';
import { progressOf } from '../../src/app/records/match-view.ts';
import { leaderboardView } from '../../src/app/records/rated-results.ts';
import { percentText, ratingText, scramblesText } from '../../src/app/records/report-text.ts';
import { formatMatchReport } from '../../src/cli/format-report.ts';
import type { Verdict } from '../../src/core/verdict.ts';
import { buildMatchReport, sprtTraceOf } from '../../src/referee/match-report.ts';
import type { SprtParams } from '../../src/stats/sprt.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import type { MatchRecord, MatchStatus, ResultSummary, ScrambleRecord } from '../../src/store/types.ts';
import { systemClock } from '../../src/transport/system-clock.ts';
import { PALETTE } from '../../src/web/bot-colour.ts';
import { leaderboardPage } from '../../src/web/pages/leaderboard.ts';
import { matchPage } from '../../src/web/pages/match.ts';

// The CLI and the web say the same thing the same way: a score short of 100% never prints as 100%, an
// infinite Elo is ±∞ on both, the SPRT's bounds carry the unit of its model, a finished match is complete.

const state = { kind: 'sliding', rows: 4, cols: 4, tiles: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 15] } as const;

/** A match of a against b over `n` stored scrambles; `outcome(i)` is a's result on scramble i (b solves in 20). */
function fixture(n: number, played: number, outcome: (i: number) => { verdict: Verdict; moves: number }, status: MatchStatus = 'finished', note?: string) {
  const match: MatchRecord = { id: 7, config: {}, seed: 's', generatorVersion: 'v', bots: ['a', 'b'], status, createdAt: '' };
  const scrambles: ScrambleRecord[] = Array.from({ length: n }, (_, i) => ({
    id: 100 + i, matchId: 7, index: i, state, puzzleClass: 'sliding 4x4', bound: { lowerBound: 10 }, ...(note ? { boundNote: note } : {}),
  }));
  const rows: ResultSummary[] = scrambles.slice(0, played).flatMap((s) => {
    const base = { matchId: 7, scrambleId: s.id, scrambleIndex: s.index, puzzleClass: s.puzzleClass, bound: s.bound, wallMs: 5 };
    const o = outcome(s.index);
    return [
      { ...base, bot: 'a', verdict: o.verdict, moveCount: o.moves },
      { ...base, bot: 'b', verdict: 'solved' as Verdict, moveCount: 20 },
    ];
  });
  return { match, scrambles, rows };
}

describe('report text - shared by the CLI and the web', () => {
  it('percentages reach 100% and 0% only when exact', () => {
    expect(percentText(299 / 300)).toBe('99.7%');
    expect(percentText(0.998)).toBe('99.8%');
    expect(percentText(0.99996, 1)).toBe('99.996%');
    expect(percentText(1)).toBe('100%');
    expect(percentText(1 / 300)).toBe('0.3%');
    expect(percentText(0)).toBe('0%');
    expect(percentText(0.5)).toBe('50%');
    expect(percentText(1 - 1e-9)).toBe('> 99.999%');
    expect(percentText(1, 1, true)).toBe('> 99.9999%');
    expect(percentText(1e-12, 1, true)).toBe('< 0.0001%');
  });

  it('infinite ratings read as ±∞, finite ones signed', () => {
    expect(ratingText(Infinity, 1, true)).toBe('+∞');
    expect(ratingText(-Infinity, 1, true)).toBe('−∞');
    expect(ratingText(277.44, 1, true)).toBe('+277.4');
    expect(ratingText(-3, 1, true)).toBe('-3.0');
  });

  it('299-0-1: the web says 99.7%, the CLI 0.997, neither 100%', () => {
    const f = fixture(300, 300, (i) => ({ verdict: 'solved', moves: i === 0 ? 30 : 10 }));
    const report = buildMatchReport(f.match, f.scrambles, f.rows);
    expect(report.summary.pairs[0]).toMatchObject({ wins: 299, draws: 0, losses: 1 });
    const html = matchPage(report, {});
    const row = /<table id="pairs">.*?<\/table>/s.exec(html)![0];
    expect(row).toContain('99.7%');
    expect(row).not.toMatch(/>100%|\b100%/);
    const cli = formatMatchReport(report);
    expect(cli).toMatch(/score 0\.997 \(95% /);
    // LOS is never exactly 100% (only in floating point): the same words on both.
    expect(cli).toContain('LOS > 99.9999%');
    expect(row).toContain('&gt; 99.9999%');
  });

  it('an infinite Elo is +∞ on the web as in the CLI, never a dash', () => {
    const f = fixture(12, 12, () => ({ verdict: 'solved', moves: 10 }));
    const report = buildMatchReport(f.match, f.scrambles, f.rows);
    const p = report.summary.pairs[0];
    expect(p.elo).toBe(Infinity);
    const cli = /Elo (\S+) \(95% (\S+) \.\. (\S+)\)/.exec(formatMatchReport(report))!.slice(1);
    expect(cli[0]).toBe('+∞');
    const html = matchPage(report, {});
    const cell = /<table id="pairs">.*?<\/tr>.*?<tr>.*?<\/td>.*?<\/td>.*?<\/td>\s*<td class="n[^"]*">(.*?)<\/td>/s.exec(html)![1];
    expect(cell.replace(/<[^>]+>/g, '')).toBe(`${cli[0]} (${cli[1]} … ${cli[2]})`);
    expect(cell).not.toContain('–');
  });

  it('the SPRT says nElo on both for the normalized model, Elo for the logistic one', () => {
    const f = fixture(80, 80, (i) => ({ verdict: 'solved', moves: i % 5 === 0 ? 20 : 10 }));
    for (const [model, unit] of [['normalized', 'nElo'], ['logistic', 'Elo']] as const) {
      const params: SprtParams = { elo0: 0, elo1: 20, alpha: 0.05, beta: 0.05, model };
      const report = buildMatchReport(f.match, f.scrambles, f.rows, {}, params);
      const trace = sprtTraceOf(params, f.match.bots, f.rows, {});
      const cli = formatMatchReport(report);
      const web = matchPage(report, {}, undefined, trace).replace(/<[^>]+>/g, '');
      expect(cli).toContain(`SPRT [0, 20] ${unit}`);
      expect(web).toContain(`[0, 20] ${unit}`);
      expect(web).toContain(`better than b by 20 ${unit}`);
      if (unit === 'nElo') expect(web).not.toMatch(/\bElo [≤≥]|20 Elo\b/);
    }
  });
});

describe('report - a finished match that stopped early', () => {
  // 200 scrambles stored, 53 played, the rest never will be; their oracle never ran.
  const f = fixture(200, 53, (i) => ({ verdict: 'solved', moves: i % 4 === 0 ? 20 : 10 }), 'finished', 'oracle pending');
  const report = buildMatchReport(f.match, f.scrambles, f.rows);

  it('lists only the scrambles it played, and no bound of it is "pending"', () => {
    expect(report.match).toMatchObject({ scrambles: 200, played: 53 });
    expect(report.scrambles).toHaveLength(53);
    expect(report.scrambles.every((s) => s.boundNote !== 'oracle pending')).toBe(true);
    const cli = formatMatchReport(report);
    expect(cli).toContain('53 of 200 scrambles played');
    expect(cli).toContain('(53 of 53 scrambles played have only a lower bound');
    expect(cli).not.toMatch(/of 200 scrambles have only|oracle pending|not played/);
  });

  it('its progress is complete: 106 of 106 results, not 106 of 400', () => {
    expect(progressOf('finished', 106, 400)).toEqual({ done: 106, total: 106, status: 'finished' });
    expect(progressOf('running', 106, 400)).toEqual({ done: 106, total: 400, status: 'running' });
    const html = matchPage(report, {});
    expect(html).toContain('<progress id="progress" max="106" value="106">');
    expect(html).toContain('106 / 106 results');
    expect(html).not.toContain('/ 400');
  });

  it('listings say a finished match that stopped early played 53 of 200, not 53/200', () => {
    expect(scramblesText(53, 200, 'finished')).toBe('53 of 200');
    expect(scramblesText(20, 20, 'finished')).toBe('20/20');
    expect(scramblesText(7, 20, 'running')).toBe('7/20');
    expect(scramblesText(7, 20, 'interrupted')).toBe('7/20');
  });

  it('a match decided and still proving its optima lists only what it played, each "optimum pending", and says so under the table', () => {
    // a wins every scramble (10 moves to 20): an SPRT of [0, 20] nElo decides H1 well before 200.
    const sprt: SprtParams = { elo0: 0, elo1: 20, alpha: 0.05, beta: 0.05, model: 'normalized' };
    const f = fixture(200, 60, () => ({ verdict: 'solved', moves: 10 }), 'running', 'oracle pending');
    const r = buildMatchReport(f.match, f.scrambles, f.rows, {}, sprt);
    expect(r.summary.sprt?.decision).toBe('H1');
    expect(r.scrambles).toHaveLength(60);
    expect(r.scrambles.every((s) => s.boundNote === 'optimum pending')).toBe(true);
    const cli = formatMatchReport(r);
    expect(cli).toContain('60 of 200 scrambles played (the SPRT decided) · seed s · running');
    expect(cli).toContain('(60 of 60 scrambles played: optimum pending (being proved; arena show has it once found))');
    expect(cli).not.toMatch(/exact search stopped|have only a lower bound/);
  });

  it('a running match still shows what is pending', () => {
    const running = fixture(10, 3, () => ({ verdict: 'solved', moves: 10 }), 'running', 'oracle pending');
    const r = buildMatchReport(running.match, running.scrambles, running.rows);
    expect(r.scrambles).toHaveLength(10);
    expect(matchPage(r, {})).toContain('<progress id="progress" max="20" value="6">');
  });
});

describe('web - distinct colours per page, the leaderboard on the class just played', () => {
  const ctx = (): AppContext => ({ store: createMemoryStore(), dbLocation: ':memory:', projectRoot: resolve(import.meta.dirname, '../..'), clock: systemClock });

  it('the bots of a page take the palette in name order, on the leaderboard and on a match page alike', async () => {
    const f = fixture(4, 4, () => ({ verdict: 'solved', moves: 10 }));
    const report = buildMatchReport({ ...f.match, bots: ['b', 'a'] }, f.scrambles, f.rows);
    const coloursOf = (html: string) => JSON.parse(/<script type="application\/json" id="colours">(.*?)<\/script>/.exec(html)![1]) as Record<string, string>;
    const onMatch = coloursOf(matchPage(report, {}));
    const board = { puzzleClass: 'sliding 4x4', entries: [{ bot: 'a' }, { bot: 'b' }] } as never;
    const onBoard = coloursOf(leaderboardPage([board], 'sliding 4x4', { puzzleClass: 'sliding 4x4', matches: [], ratings: { a: [], b: [] } } as never));
    expect(onMatch).toEqual({ a: PALETTE[0], b: PALETTE[1] });
    expect(onBoard).toEqual(onMatch);
  });

  it('the leaderboard opens on the class of the newest match, not the alphabetically first', async () => {
    const c = ctx();
    for (const [cls, st] of [['sliding 3x3', state], ['hanoi 3', { kind: 'hanoi', pegs: 3, start: 'AAA', goal: 'CCC' }], ['sliding 2x2', state]] as const) {
      const m = await c.store.createMatch({ config: {}, seed: 's', generatorVersion: 'v', bots: ['a', 'b'], scrambles: [{ index: 0, state: st as never, puzzleClass: cls, bound: { lowerBound: 1 } }] });
      const [s] = await c.store.listScrambles(m.id);
      for (const [bot, moves] of [['a', 5], ['b', 7]] as const) await c.store.recordResult({ scrambleId: s.id, bot, verdict: 'solved', moveCount: moves, moves: 'U'.repeat(moves), wallMs: 1 });
    }
    const view = await leaderboardView(c);
    expect(view.boards.map((b) => b.puzzleClass).sort()[0]).toBe('hanoi 3');
    expect(view.history?.puzzleClass).toBe('sliding 2x2');
    expect((await leaderboardView(c, 'hanoi 3')).history?.puzzleClass).toBe('hanoi 3');
  });
});
