import { describe, expect, it } from 'vitest';
import { reportOf } from '../../src/app/records/records.ts';
import type { AppContext } from '../../src/app/context.ts';
import { formatMatchReport } from '../../src/cli/format-report.ts';
import { createMemoryStore } from '../../src/store/memory/memory-store.ts';
import { matchPage } from '../../src/web/pages/match.ts';

/** A stored match with this config, and its report as every reader gets it. */
async function reportWith(config: Record<string, unknown>) {
  const store = createMemoryStore();
  const match = await store.createMatch({
    config: { bots: ['ida-star', 'constructive'], count: 1, seed: 's', timeLimitMs: 1000, maxMoves: 10, concurrency: 1, ...config },
    seed: 's',
    generatorVersion: 'v',
    bots: ['ida-star', 'constructive'],
    scrambles: [{ index: 0, state: { kind: 'sliding', rows: 2, cols: 2, tiles: [1, 2, 3, 0] }, puzzleClass: 'sliding 2x2', bound: { lowerBound: 0, optimal: 0 } }],
  });
  const ctx = { store, dbLocation: ':memory:', projectRoot: '/p', clock: { now: () => 0 } } as unknown as AppContext;
  return { report: await reportOf(ctx, match), config: match.config };
}

describe('cores in reports', () => {
  it('cores report - a pinned match says how its cores were dealt in the report, the text, and the web page', async () => {
    const deal = { pinned: true, referee: [0, 3], players: [[1, 2]], bots: { 'ida-star': 1, constructive: 2 } };
    const { report, config } = await reportWith({ affinity: true, cores: deal });
    expect(report.match.cores).toEqual({ text: 'referee 0,3; ida-star 1; constructive 1-2', deal });
    expect(formatMatchReport(report).split('\n')[1]).toBe('cores: referee 0,3; ida-star 1; constructive 1-2');
    expect(matchPage(report, config)).toContain('<p class="meta" id="cores">cores: referee 0,3; ida-star 1; constructive 1-2</p>');
  });

  it('cores report - a match that pinned nothing says why', async () => {
    const { report, config } = await reportWith({ concurrency: 2, affinity: true, cores: { pinned: false, reason: '2 cores for 2 players' } });
    expect(report.match.cores?.text).toBe('not pinned: 2 cores for 2 players');
    expect(formatMatchReport(report)).toContain('\ncores: not pinned: 2 cores for 2 players\n');
    expect(matchPage(report, config)).toContain('cores: not pinned: 2 cores for 2 players');
  });

  it('cores report - an older match, stored before the deal, says nothing of cores; a malformed deal is not read', async () => {
    const { report, config } = await reportWith({});
    expect('cores' in report.match).toBe(false);
    expect(formatMatchReport(report)).not.toContain('cores:');
    expect(matchPage(report, config)).not.toContain('id="cores"');
    const bad = await reportWith({ cores: { pinned: true, referee: [0], players: [], bots: {} } });
    expect('cores' in bad.report.match).toBe(false);
  });
});
