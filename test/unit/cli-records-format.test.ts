import { describe, expect, it } from 'vitest';
import type { MatchReport } from '../../src/app/matches/matches.ts';
import { showPerScramble } from '../../src/cli/commands/match.ts';
import { toCsv } from '../../src/cli/csv.ts';
import { formatScrambleTable } from '../../src/cli/format-scrambles.ts';
import { duration, progressBar } from '../../src/cli/progress.ts';
import { shellQuote } from '../../src/cli/shell-quote.ts';

function report(): MatchReport {
  return {
    match: { id: 4, status: 'finished', seed: 's', generatorVersion: 'v', bots: ['a', 'b'], puzzleClasses: ['sliding 4x4'], scrambles: 3, createdAt: '' },
    scrambles: [
      { scramble: 1, puzzleClass: 'sliding 4x4', optimal: 50, lowerBound: 50, winner: 'a', decidedBy: 'moves' },
      { scramble: 2, puzzleClass: 'sliding 4x4', lowerBound: 44, boundNote: 'exact search stopped at its budget of 30 s', winner: 'b', decidedBy: 'time' },
      { scramble: 3, puzzleClass: 'sliding 4x4', optimal: 40, lowerBound: 40, winner: null },
    ],
    results: [
      { scramble: 1, bot: 'a', verdict: 'solved', moves: 50, timeMs: 10, lowerBound: 50, optimal: 50 },
      { scramble: 1, bot: 'b', verdict: 'solved', moves: 52, timeMs: 5, lowerBound: 50, optimal: 50, claimedOptimal: true, claimContradicted: true },
      { scramble: 2, bot: 'a', verdict: 'solved', moves: 46, timeMs: 90, lowerBound: 44 },
      { scramble: 2, bot: 'b', verdict: 'solved', moves: 46, timeMs: 9, lowerBound: 44 },
      { scramble: 3, bot: 'a', verdict: 'invalid', moves: 11, timeMs: 3, lowerBound: 40, optimal: 40, index: 11, reason: "move 11 'U': the blank is on the top row" },
      { scramble: 3, bot: 'b', verdict: 'timeout', moves: 0, timeMs: 1000, lowerBound: 40, optimal: 40, reason: 'no final answer within 1000 ms' },
    ],
    summary: { bots: {}, pairs: [] },
  } as unknown as MatchReport;
}

describe('per-scramble table', () => {
  it('shows the winner ("time" when the margin decided), the =/≥ legend, and every reason as a footnote', () => {
    const text = formatScrambleTable(report()).join('\n');
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^#\s+best\s+a\s+b\s+winner$/);
    expect(lines[1]).toMatch(/^1\s+=50\s+50 in 10ms\s+52 in 5\.0ms\[1\]\s+a$/);
    expect(lines[2]).toMatch(/^2\s+≥44\[2\]\s+46 in 90ms\s+46 in 9\.0ms\s+b \(time\)$/);
    expect(lines[3]).toMatch(/^3\s+=40\s+invalid @11\[3\]\s+timeout\[4\]\s+draw$/);
    expect(text).toContain('best: =n the exact optimum, ≥n a lower bound');
    expect(text).toContain('  [1] b claimed an optimal answer; the optimum is 50');
    expect(text).toContain('  [2] bound only: exact search stopped at its budget of 30 s');
    expect(text).toContain("  [3] invalid @11: move 11 'U': the blank is on the top row");
    expect(text).toContain('  [4] timeout: no final answer within 1000 ms');
  });

  it('numbers a repeated reason once', () => {
    const r = report();
    const same = { ...r, results: r.results.map((x) => (x.verdict === 'solved' ? x : { ...x, verdict: 'unsupported' as const, index: undefined, reason: 'declined' })) };
    const text = formatScrambleTable(same as MatchReport).join('\n');
    expect(text.match(/unsupported: declined/g)).toHaveLength(1);
  });

  it('collapses on a terminal above 50 scrambles unless asked, never in a pipe, always with --quiet', () => {
    expect(showPerScramble(51, {}, true)).toBe(false);
    expect(showPerScramble(50, {}, true)).toBe(true);
    expect(showPerScramble(51, { scrambles: true }, true)).toBe(true);
    expect(showPerScramble(5000, {}, false)).toBe(true);
    expect(showPerScramble(5, { quiet: true }, false)).toBe(false);
  });
});

describe('progress line', () => {
  it('prints the start line and draws id, scrambles, plays, ETA and the oracle on a terminal', () => {
    let written = '';
    let t = 0;
    const stream = { isTTY: true, columns: 200, write: (s: string) => ((written += s), true) } as unknown as NodeJS.WriteStream;
    const bar = progressBar(stream, () => t);
    bar.start({ match: { id: 9, seed: '42', bots: ['a', 'b'] } as never, total: 20, done: 0, dbLocation: '/tmp/x.db' });
    expect(written).toBe('match 9: 10 scrambles × 2 bots, seed 42; results in /tmp/x.db\n');
    t = 1000;
    bar.update({ scrambleIndex: 0, bot: 'a', verdict: 'solved', moves: 12, wallMs: 3, done: 1, total: 20 });
    t = 2000;
    bar.update({ scrambleIndex: 0, bot: 'b', verdict: 'timeout', moves: 0, wallMs: 900, done: 2, total: 20 });
    bar.bound({ scrambleIndex: 0, exact: true, done: 1, total: 10 });
    const last = written.split('\r').at(-1)!.trimEnd();
    expect(last).toBe('match 9 [##..................] 1/10 scrambles (2/20 plays) · ETA 18s · #1 b: timeout · optimum 1/10');
    bar.end();
    expect(written.endsWith('\n')).toBe(true);
  });

  it('is silent but for the start line off a terminal', () => {
    let written = '';
    const stream = { isTTY: false, write: (s: string) => ((written += s), true) } as unknown as NodeJS.WriteStream;
    const bar = progressBar(stream);
    bar.start({ match: { id: 1, seed: '1', bots: ['a'] } as never, total: 2, done: 0, dbLocation: 'db' });
    bar.update({ scrambleIndex: 0, bot: 'a', verdict: 'solved', moves: 1, wallMs: 1, done: 1, total: 2 });
    bar.end();
    expect(written).toBe('match 1: 2 scrambles × 1 bot, seed 1; results in db\n');
  });

  it('formats durations', () => {
    expect([duration(400), duration(42_000), duration(65_000), duration(3_720_000)]).toEqual(['0s', '42s', '1m05s', '1h02m']);
  });
});

describe('shell quoting and CSV', () => {
  it('quotes only what the shell would split or expand', () => {
    expect(shellQuote('/tmp/arena-x/arena.db')).toBe('/tmp/arena-x/arena.db');
    expect(shellQuote('/tmp/my dir/a.db')).toBe("'/tmp/my dir/a.db'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('$HOME')).toBe("'$HOME'");
  });

  it('writes RFC 4180 CSV and defuses cells a spreadsheet would run as formulas', () => {
    const csv = toCsv([{ a: 'x,"y"', b: null, c: true, d: '=HYPERLINK("x")', e: -3 }], ['a', 'b', 'c', 'd', 'e'], true);
    expect(csv).toBe(`a,b,c,d,e\n"x,""y""",,true,"'=HYPERLINK(""x"")",-3\n`);
  });
});
